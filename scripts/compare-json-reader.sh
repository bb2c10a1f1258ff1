#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Compares two fitcheck CLI builds on every bundled config and on malformed texts: `params --json`,
# `infer --json` (with and without a GPU) and `train --json`, stdout, stderr and exit status.
# Usage: scripts/compare-json-reader.sh OLD_FITCHECK NEW_FITCHECK
set -uo pipefail
cd "$(dirname "$0")/.."
old=$1 new=$2
work=$(mktemp -d)
compared=0 identical=0
run_both() {  # run_both NAME STDIN_FILE ARGS...
  local name=$1 input=$2; shift 2
  "$old" "$@" <"$input" >"$work/old.out" 2>"$work/old.err"; echo "rc $?" >>"$work/old.out"
  "$new" "$@" <"$input" >"$work/new.out" 2>"$work/new.err"; echo "rc $?" >>"$work/new.out"
  compared=$((compared + 1))
  if cmp -s "$work/old.out" "$work/new.out" && cmp -s "$work/old.err" "$work/new.err"; then
    identical=$((identical + 1))
  else
    echo "DIFFERS: $name: $*"
  fi
}
configs=$(find tests/fixtures/configs validation/configs tests/fixtures/hostile -type f | sort)
for config in $configs; do
  run_both "$config" /dev/null params "$config" --json
  run_both "$config" /dev/null infer "$config" --json
  run_both "$config" /dev/null infer "$config" --gpu h100-sxm-80gb --json
  run_both "$config" /dev/null train "$config" --json
done
# Malformed and unusual texts through stdin.
i=0
while IFS= read -r text; do
  i=$((i + 1))
  printf '%b' "$text" >"$work/in.json"
  run_both "text $i" "$work/in.json" params - --json
done <<'TEXTS'
{"model_type":"llama","hidden_size":4096,"num_hidden_layers":32,"num_attention_heads":32,"intermediate_size":11008,"vocab_size":32000}
{"model_type":"llama","hidden_size":4096.0,"num_hidden_layers":32,"num_attention_heads":32,"intermediate_size":11008,"vocab_size":32000}
{"model_type":"llama","hidden_size":18446744073709551616,"num_hidden_layers":32}
{"model_type":"llama","hidden_size":9223372036854775808,"num_hidden_layers":32}
{"model_type":"llama","hidden_size":-0,"num_hidden_layers":32}
{"model_type":"llama","hidden_size":1e400}
{"model_type":"llama","hidden_size":-1e400}
{"model_type":"llama","hidden_size":1E999,"x":[1,2}
{"model_type":"llama","hidden_size":4096,"hidden_size":4097}
{"model_type":"llama","hidden_size":4096,"hidden_size":4096}
{"model_type":"llama","hidden_size":NaN}
{"model_type":"llama","hidden_size":Infinity,"rope_scaling":{"factor":-Infinity}}
{"model_type":"llama","hidden_size":tru}
{"model_type":"llama","hidden_size":nul
{"model_type":"llama","hidden_size":01}
{"model_type":"llama","hidden_size":-}
{"model_type":"llama","hidden_size":1.}
{"model_type":"llama","hidden_size":1e}
{"model_type":"llama","hidden_size":1e+}
{"model_type":"llama","hidden_size":4096,}
{"model_type":"llama" "hidden_size":4096}
{"model_type":"llama",,}
{"model_type":"llama"}}
{"model_type":"llama"} x
[1,2,3]
"llama"
42
{"model_type":"ll\\u00e9ama"}
{"model_type":"\\ud83d\\ude00"}
{"model_type":"\\ud83d"}
{"model_type":"\\ude00"}
{"model_type":"\\ud83dx"}
{"model_type":"\\u12"}
{"model_type":"\\q"}
{"model_type":"a\tb"}
{"model_type":"a\x01b"}
{"model_type":"a\xffb"}
{"model_type":"a\xc3"}
{"model_type":"a\xe0\x80\x80"}
{"model_type":"a\xed\xa0\x80"}
{"model_type":"a\xf4\x90\x80\x80"}
{"model_type":"llama
{"model_type":"llama\\
\xef\xbb\xbf{"model_type":"llama"}
\xef\xbb{"model_type":"llama"}
{"model_type":"llama","x":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}
{"model_type":"llama","x":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}
{"model_type":"llama","hidden_size":"4096"}
{"model_type":"llama","hidden_size":[4096]}
{"model_type":"llama","hidden_size":{"a":1,"b":[true,null,1.5e-7,"x\\"y"]}}
{"model_type":"llama","hidden_size":0.1}
{"model_type":"llama","hidden_size":1e20}
{"model_type":"llama","hidden_size":123456789012345678901234567890}
{"model_type":"llama","hidden_size":-5}
{"model_type":"llama","hidden_size":true}
{"model_type":"llama","hidden_size":null,"num_hidden_layers":32,"num_attention_heads":32,"intermediate_size":11008,"vocab_size":32000}
{"model_type":"llava","text_config":{"model_type":"llama","hidden_size":1.5},"vision_config":{"hidden_size":"x"}}
{"model_type":"llama",\n"hidden_size":\n  tru}
{"model_type":"llama","\\u0068idden_size":4096,"hidden_size":4097}
{"a\\u0000b":1}
{/*c*/"model_type":"llama"}
{"model_type":"llama","x":-01}
{"model_type":"llama","x":- 1}
{"model_type":"llama","x":1.5E+3,"hidden_size":2.5e3}
{"model_type":"llama","x":[1,]}
{"model_type":"llama","x":[1 2]}
{"model_type":"llama","x":{"a" 1}}
{"model_type":"llama","x":{1:2}}
{"model_type":"llama","x":fals}
  \n\t{"model_type":"llama"}  \n
TEXTS
echo "compared $compared, identical $identical"
rm -rf "$work"
[ "$compared" = "$identical" ]
