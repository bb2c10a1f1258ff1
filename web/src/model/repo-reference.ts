// SPDX-License-Identifier: MIT
// A Hugging Face model named instead of its config pasted (a hub URL, or org/name): fitcheck makes
// no network request, so it says where to copy the config.json from, and offers the bundled
// preset of that model when there is one.
import { presets, type Preset } from './presets';

export interface RepoReference {
  /** org/name as written. */
  repo: string;
  /** The config.json's page on the Hub. */
  configUrl: string;
  message: string;
  preset?: Preset;
}

const hubUrl = /^(?:https?:\/\/)?(?:www\.)?(?:huggingface\.co|hf\.co)\/(?:models\/)?([\w.-]+\/[\w.-]+)(?:[/?#]\S*)?$/i;
const repoName = /^([A-Za-z0-9][\w.-]*\/[A-Za-z0-9][\w.-]*)$/;

/** The repository a text names, when the whole text is a hub URL or org/name (and so not JSON). */
export function repoReference(text: string): RepoReference | undefined {
  const trimmed = text.trim();
  const match = hubUrl.exec(trimmed) ?? repoName.exec(trimmed);
  if (!match) return undefined;
  const repo = match[1].replace(/\.git$/, '');
  const configUrl = `https://huggingface.co/${repo}/blob/main/config.json`;
  const id = repo.replace('/', '--').toLowerCase();
  const name = repo.split('/')[1].toLowerCase();
  const preset = presets.find((p) => p.id === id) ?? presets.find((p) => p.label.toLowerCase() === name);
  const message =
    `"${repo}" names a model; fitcheck needs its config.json text and never downloads anything. ` +
    `Open ${configUrl}, copy the file's text and paste it here` +
    (preset ? `, or use the bundled preset ${preset.label}.` : '.');
  return { repo, configUrl, message, preset };
}
