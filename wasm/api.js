// SPDX-License-Identifier: MIT
// The core's JS functions, linked into the Emscripten glue (--post-js): strings in as UTF-8, one
// call to fitcheck_call (wasm/bindings.cpp), the JSON answer parsed into a plain object, or an
// Error carrying the message and, for config and option errors, the field it names.
// Conversion only: every figure comes from the core. The full module adds wasm/api-full.js.

var fitcheckEncoder = new TextEncoder();
var fitcheckDecoder = new TextDecoder();

var fitcheckMaxInputBytes = 0;

// The core's one input limit (fitcheck/config.hpp kMaxConfigBytes), asked once.
function fitcheckInputLimit() {
  if (!fitcheckMaxInputBytes) fitcheckMaxInputBytes = Number(fitcheckCall(10, '', null, true));
  return fitcheckMaxInputBytes;
}

// The UTF-8 length of `text` as TextEncoder would write it (a lone surrogate: U+FFFD, 3 bytes).
function fitcheckUtf8Length(text) {
  var bytes = 0;
  for (var i = 0; i < text.length; ++i) {
    var unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xD800 && unit < 0xDC00 && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xFC00) === 0xDC00) { bytes += 4; ++i; }
    else bytes += 3;
  }
  return bytes;
}

// _malloc that never hands back 0: a failed allocation frees what this call allocated and throws,
// leaving the module as it was (nothing is written at address 0).
function fitcheckAllocate(size, owned) {
  var pointer = _malloc(size);
  if (!pointer) {
    owned.forEach(function (p) { _free(p); });
    owned.length = 0;
    throw new Error('fitcheck: not enough memory for an input of ' + size + ' bytes; nothing was computed');
  }
  owned.push(pointer);
  return pointer;
}

// Call numbers: wasm/bindings.cpp's `Call`. Every text goes in as (pointer, length): a NUL inside is
// a byte like any other, never an end. A text over the input limit is not copied: it goes in as
// (0, length) and the core refuses it by its length, in its own words.
function fitcheckCall(call, configText, options, raw) {
  // A Uint8Array (a weight file's first bytes) goes in as it is; everything else as UTF-8 text.
  var texts = [configText instanceof Uint8Array ? configText : configText === undefined || configText === null ? '' : String(configText)];
  if (options !== undefined && options !== null) {
    Object.keys(options).forEach(function (key) {
      var value = options[key];
      if (value !== undefined && value !== null) texts.push(key, String(value));
    });
  }
  // The core's input limit applies to texts; a weight file's header (checkpointReport, call 11) is
  // bytes the page has already sliced to what the parser asked for.
  var limit = call === 10 || call === 11 ? Infinity : fitcheckInputLimit();
  // Lone UTF-16 surrogates become U+FFFD: the core always sees well-formed UTF-8. A text longer
  // than the limit in UTF-16 units is longer in UTF-8 bytes too: not even encoded.
  var encoded = texts.map(function (text) {
    if (text instanceof Uint8Array) return text;
    return text.length > limit ? { length: fitcheckUtf8Length(text) } : fitcheckEncoder.encode(text);
  });
  var owned = [];
  var table = fitcheckAllocate(encoded.length * 8, owned);
  var result = 0;
  try {
    encoded.forEach(function (bytes, i) {
      var pointer = 0;
      if (bytes.length <= limit) {
        pointer = fitcheckAllocate(bytes.length + 1, owned);
        HEAPU8.set(bytes, pointer);  // HEAPU8 read after each malloc: memory may have grown
      }
      HEAPU32[(table >> 2) + 2 * i] = pointer;
      HEAPU32[(table >> 2) + 2 * i + 1] = bytes.length;
    });
    result = _fitcheck_call(call, table, encoded.length);
  } finally {
    owned.forEach(function (pointer) { _free(pointer); });
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
  if (status === 1 || status === 3) error.field = second;
  // A family the first-view module leaves to the full module (core/load.ts reads it there).
  if (status === 3) error.fullModule = true;
  throw error;
}

Module['parameterReport'] = function (configText) { return fitcheckCall(0, configText); };
Module['inferenceReport'] = function (configText, options) { return fitcheckCall(1, configText, options); };
// Memory at each value of options.sweep (context or batch), listed in options.sweep_values.
Module['inferenceSweep'] = function (configText, options) { return fitcheckCall(14, configText, options); };
Module['acceleratorCatalog'] = function () { return fitcheckCall(6); };
Module['formatCatalog'] = function () { return fitcheckCall(7); };
Module['version'] = function () { return fitcheckCall(8, '', null, true); };
Module['maxInputBytes'] = fitcheckInputLimit;
// A report's JSON text exactly as the core wrote it (the CLI's --json prints the same bytes), for
// byte-for-byte comparisons (tests/node/native-wasm-identity.test.mjs). Errors throw as above.
Module['reportText'] = function (name, configText, options) {
  var calls = { parameters: 0, inference: 1, training: 2, plan: 3, training_plan: 4, transformer_mem: 5, inference_sweep: 14 };
  if (!(name in calls)) throw new Error('unknown report ' + String(name));
  return fitcheckCall(calls[name], configText, options, true);
};
