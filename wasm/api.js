// SPDX-License-Identifier: MIT
// The core's JS functions, linked into the Emscripten glue (--post-js): strings in as UTF-8, one
// call to fitcheck_call (wasm/bindings.cpp), the JSON answer parsed into a plain object, or an
// Error carrying the message and, for config and option errors, the field it names.
// Conversion only: every figure comes from the core. The full module adds wasm/api-full.js.

var fitcheckEncoder = new TextEncoder();
var fitcheckDecoder = new TextDecoder();

// Call numbers: wasm/bindings.cpp's `Call`.
function fitcheckCall(call, configText, options, raw) {
  // A Uint8Array (a weight file's first bytes) goes in as it is; everything else as UTF-8 text.
  var texts = [configText instanceof Uint8Array ? configText : configText === undefined || configText === null ? '' : String(configText)];
  if (options !== undefined && options !== null) {
    Object.keys(options).forEach(function (key) {
      var value = options[key];
      if (value !== undefined && value !== null) texts.push(key, String(value));
    });
  }
  // Lone UTF-16 surrogates become U+FFFD: the core always sees well-formed UTF-8.
  var encoded = texts.map(function (text) { return text instanceof Uint8Array ? text : fitcheckEncoder.encode(text); });
  var pointers = [];
  var table = _malloc(encoded.length * 8);
  var result = 0;
  try {
    encoded.forEach(function (bytes, i) {
      var pointer = _malloc(bytes.length + 1);
      pointers.push(pointer);
      HEAPU8.set(bytes, pointer);  // HEAPU8 read after each malloc: memory may have grown
      HEAPU32[(table >> 2) + 2 * i] = pointer;
      HEAPU32[(table >> 2) + 2 * i + 1] = bytes.length;
    });
    result = _fitcheck_call(call, table, encoded.length);
  } finally {
    pointers.forEach(function (pointer) { _free(pointer); });
    _free(table);
  }
  if (!result) throw new Error('the core ran out of memory');
  var status = HEAPU32[result >> 2];
  var firstLength = HEAPU32[(result >> 2) + 1];
  var first = fitcheckDecoder.decode(HEAPU8.subarray(result + 8, result + 8 + firstLength));
  var secondAt = result + 8 + firstLength;
  var secondLength = HEAPU8[secondAt] | (HEAPU8[secondAt + 1] << 8) | (HEAPU8[secondAt + 2] << 16) | (HEAPU8[secondAt + 3] << 24);
  var second = fitcheckDecoder.decode(HEAPU8.subarray(secondAt + 4, secondAt + 4 + secondLength));
  _free(result);
  if (status === 0) return raw ? first : JSON.parse(first);
  var error = new Error(first);
  if (status === 1) error.field = second;
  throw error;
}

Module['parameterReport'] = function (configText) { return fitcheckCall(0, configText); };
Module['inferenceReport'] = function (configText, options) { return fitcheckCall(1, configText, options); };
Module['acceleratorCatalog'] = function () { return fitcheckCall(6); };
Module['formatCatalog'] = function () { return fitcheckCall(7); };
Module['version'] = function () { return fitcheckCall(8, '', null, true); };
// bytes: the first bytes of a GGUF, safetensors or index file; fileSizeBytes: File.size. Answers the
// report, or {complete: false, bytes_needed, needed_for}: slice that many bytes and call again.
Module['checkpointReport'] = function (bytes, fileSizeBytes) { return fitcheckCall(9, bytes, { file_size: fileSizeBytes }); };
