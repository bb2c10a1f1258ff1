#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes web/src/model/presets/presets.json: the architecture facts of real models, as fitcheck's own
data. Each preset keeps only the config fields the core reads, plus where they came from.

Usage: python3 scripts/make-presets.py [CONFIG_DIR ...]   (default:
tests/fixtures/configs). Run it when a config is added; the output is committed. The keys kept are
the core's own list, from the CLI (build/fitcheck, or $FITCHECK_CLI): build it first.
"""
import csv
import json
import os
import re
import subprocess
import sys


def read_field_table(cli):
    """The core's table of the config.json keys it reads (`fitcheck config-fields --json`)."""
    result = subprocess.run([cli, "config-fields", "--json"], check=True, capture_output=True, text=True)
    return json.loads(result.stdout)["fields"]


def keep(config, table, scope="model"):
    """The config with only the keys the core reads (web/src/model/config-fields.ts, same rule): an
    object key keeps the keys read inside it; audio_config counts by presence."""
    keys = {}
    for row in table:
        if row["in"] == scope:
            for key in [row["name"]] + row["aliases"]:
                keys[key] = row.get("holds")
    out = {}
    for key, value in config.items():
        if key not in keys:
            continue
        holds = keys[key]
        if holds is None or not isinstance(value, dict):
            out[key] = value
        else:
            out[key] = {} if holds == "none" else keep(value, table, holds)
    return out


def repo_of(row):
    """The Hugging Face repository a row names: the first word of hf_repo_id (the column may add a
    note after it, in parentheses or not), or None when the column holds only a note."""
    words = row["hf_repo_id"].split()
    if not words or words[0].startswith("(") or "/" not in words[0]:
        return None
    return words[0].rstrip(",;)")


def labels_of(rows):
    """Each row's label: the repository's name (org/NAME), or the fixture file's name when the
    repository is missing or another row names the same one (a re-upload in another format)."""
    def from_file(row):
        return row["file"][:-5].split("--")[-1]

    def from_repo(row):
        # The repository's name, unless the fixture is another release of it (MiniMax-M1's config
        # as the MiniMax-M1-40k repository names it): then the file's name, as the id is.
        name = repo_of(row).split("/")[-1]
        return name if name.lower() in row["file"].lower() else from_file(row)

    names = [from_repo(row) if repo_of(row) else from_file(row) for row in rows]
    labels = []
    for row, name in zip(rows, names):
        same = names.count(name) > 1
        own = repo_of(row) and row["file"][:-5].lower() == repo_of(row).replace("/", "--").lower()
        labels.append(from_file(row) if same and not own else name)
    return labels


def source_of(row):
    """One plain, whole sentence on where the preset's shapes and count come from (the fixture's
    MANIFEST.tsv row has the full provenance)."""
    config = row["source_of_config"]
    match = re.match(r"GitHub ([^@\s]+)@", config)
    if match:
        shapes = f"config.json from GitHub {match.group(1)}"
    elif config.startswith("RECONSTRUCTED") and "git blob SHA-1" in config:
        shapes = "config.json rebuilt byte for byte (its git hash is the Hub file's id; no stored copy found)"
    elif config.startswith("RECONSTRUCTED"):
        shapes = "config.json rebuilt from published shapes (no public copy of the file)"
    elif "report" in config.split(";")[0] or "report" in config.split("(")[0]:
        shapes = "config.json as a public model-inspection report quotes it"
    elif "transcript prints it" in config.split("(")[0]:
        shapes = "config.json as a public transcript prints the Hub's file"
    else:
        shapes = "config.json from " + config.split(":")[0]
    return f"Shapes: {shapes}. Parameter count: {int(row['total_params']):,}, from published figures."


def strict_constant(name):
    raise ValueError(f"{name} is not JSON")


def main(directories, cli):
    table = read_field_table(cli)
    presets = []
    for directory in directories:
        with open(os.path.join(directory, "MANIFEST.tsv"), newline="") as manifest:
            # Only models whose count is established.
            rows = [row for row in csv.DictReader(manifest, delimiter="\t") if row.get("total_params")]
        for row, label in zip(rows, labels_of(rows)):
            with open(os.path.join(directory, row["file"])) as f:
                try:
                    # Strict JSON only: the page parses presets with JSON.parse, which refuses Python's
                    # NaN and Infinity (Mamba-Codestral's time_step_limit); such a config is pasted, not bundled.
                    config = json.load(f, parse_constant=strict_constant)
                except ValueError:
                    continue
            presets.append({
                "id": row["file"][:-5].lower(),
                "label": label,
                "family": row["model_type"],
                "total_params": int(row["total_params"]),
                "source": source_of(row),
                "config": keep(config, table),
            })
    presets.sort(key=lambda p: (p["family"].lower(), p["total_params"]))
    out_path = os.path.join(os.path.dirname(__file__), "..", "web", "src", "model", "presets", "presets.json")
    os.makedirs(os.path.dirname(out_path), exist_ok=True)
    with open(out_path, "w") as out:
        json.dump(presets, out, indent=1, sort_keys=False)
        out.write("\n")
    print(f"wrote {len(presets)} presets to {os.path.normpath(out_path)}")


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    default = [os.path.join(here, "..", "tests", "fixtures", "configs")]
    main(sys.argv[1:] or default, os.environ.get("FITCHECK_CLI", os.path.join(here, "..", "build", "fitcheck")))
