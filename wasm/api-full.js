// SPDX-License-Identifier: MIT
// The full module's functions beyond the first-view module's (linked after wasm/api.js, whose
// fitcheckCall they use). The first-view module lacks them, so core/load.ts can say where they are.
Module['trainingReport'] = function (configText, options) { return fitcheckCall(2, configText, options); };
Module['planReport'] = function (configText, options) { return fitcheckCall(3, configText, options); };
Module['trainingPlanReport'] = function (configText, options) { return fitcheckCall(4, configText, options); };
Module['transformerMemReport'] = function (options) { return fitcheckCall(5, '', options); };
Module['servingReport'] = function (configText, options) { return fitcheckCall(12, configText, options); };
Module['localReport'] = function (configText, options) { return fitcheckCall(13, configText, options); };
Module['configFields'] = function () { return fitcheckCall(9); };
Module['cpuCatalog'] = function () { return fitcheckCall(15); };
Module['localGpuCatalog'] = function () { return fitcheckCall(16); };
Module['localFormats'] = function (configText, options) { return fitcheckCall(17, configText, options); };
// bytes: the first bytes of a GGUF, safetensors or index file; fileSizeBytes: File.size. Answers the
// report, or {complete: false, bytes_needed, needed_for}: slice that many bytes and call again.
Module['checkpointReport'] = function (bytes, fileSizeBytes) { return fitcheckCall(11, bytes, { file_size: fileSizeBytes }); };
