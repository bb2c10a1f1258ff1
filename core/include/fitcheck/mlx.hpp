// SPDX-License-Identifier: MIT
// Local inference as Apple's MLX LM (ml-explore/mlx-lm, `mlx_lm.generate` / `mlx_lm.benchmark`) runs a
// model on Apple silicon: the bytes of its affine-quantized weights, the KV cache as mlx-lm grows it,
// the prefill's live temporaries, the peak mx.get_peak_memory() reports, and prompt and generation
// tokens/s. Every rule cites mlx-lm or MLX source (docs/local.md, "MLX LM on Apple silicon").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fitcheck/hardware.hpp"
#include "fitcheck/model.hpp"
#include "fitcheck/options.hpp"

namespace fitcheck {

// mlx_lm.convert -q in its default affine mode (mlx-lm d78bf58e mlx_lm/utils.py quantize_model): bits 2,
// 3, 4, 5, 6 or 8 per weight with a scale and a bias per group of 32, 64 or 128 (mlx ops.cpp quantize).
// bits 0: unquantized, every tensor in the model's dtype.
struct MlxQuantization {
  int bits = 4;
  std::int64_t group_size = 64;
};

struct MlxRequest {
  Accelerator gpu;  // an Apple chip: unified memory, the GPU's working set as macOS sets it
  MlxQuantization quantization;
  std::int64_t prompt_len = 512;     // mlx_lm.benchmark -p
  std::int64_t gen_len = 128;        // -g: tokens generated
  std::int64_t prefill_step = 2048;  // --prefill-step-size (generate_step's prefill_step_size)
  // The dtype of unquantized weights, scales, activations and the cache: "bf16", "fp16", "fp32" (convert
  // --dtype); empty: the config's torch_dtype.
  std::string dtype;
  std::string model_name = "model";  // for the printed command only
};

// One line of the peak: what it is, its bytes, and the formula with the numbers.
struct MlxMemoryTerm {
  std::string name;
  std::int64_t bytes = 0;
  std::string formula;
};

// How one generated token's time is made at the middle of the generation: the weights and cache it
// reads at a share of the chip's bandwidth, plus MLX's fixed cost per kernel of the step's graph (its
// building in Python and the kernel's encoding).
struct MlxTokenTime {
  double weight_bytes = 0;
  double kv_bytes = 0;
  double bandwidth_fraction = 0;
  double bandwidth_bytes_per_second = 0;  // peak x bandwidth_fraction
  std::int64_t kernels = 0;               // the decoder layers' kernels at one token
  double seconds_per_kernel = 0;
  double seconds = 0;  // (weight_bytes + kv_bytes) / bandwidth + kernels x seconds_per_kernel
};

// The prompt's time: every chunk's products at a share of the chip's fp16 rate, then the one-token step
// that yields the first token (mlx_lm.benchmark's prompt_tps is the prompt over the time to that token).
struct MlxPromptTime {
  double flops = 0;  // weight products (2 x active matrix parameters a token) and attention, all chunks
  double compute_fraction = 0;
  double flops_per_second = 0;  // peak x compute_fraction
  std::int64_t chunks = 0;
  double chunk_seconds = 0;        // the fixed cost of one chunk's forward (its kernels x seconds_per_kernel)
  double first_token_seconds = 0;  // the last prompt token's step, as a generation step at that context
  double seconds = 0;
};

struct MlxEstimate {
  std::string weights;  // "4-bit affine, group 64" or "bf16 (unquantized)"
  std::int64_t quantized_parameters = 0;
  std::int64_t unquantized_parameters = 0;
  std::int64_t weight_bytes = 0;
  double bits_per_weight = 0;       // weight_bytes x 8 / parameters, as mlx_lm's loader prints it
  std::int64_t kv_cache_bytes = 0;  // allocated when the last token is generated
  std::int64_t kv_cache_slots = 0;  // per full-attention layer (mlx-lm grows in steps of 256)
  // The last prefill chunk: the cache, its live temporaries, the used inputs held by command buffers in
  // flight, and a cache growth's copy.
  std::int64_t prefill_peak_bytes = 0;
  std::int64_t peak_memory_bytes = 0;  // mx.get_peak_memory(): weights + the larger of prefill and end
  std::int64_t working_set_bytes = 0;  // the GPU's wired limit: macOS's recommendedMaxWorkingSetSize
  bool fits = true;
  std::vector<MlxMemoryTerm> terms;  // the peak's lines
  double prompt_tokens_per_second = 0;
  double generation_tokens_per_second = 0;  // mlx_lm.benchmark's generation_tps
  MlxTokenTime generation_token_time;
  MlxPromptTime prompt_time;
  std::string mlx_command;
  std::vector<std::string> assumptions;
};

// Throws std::invalid_argument naming the option for a chip that is not Apple silicon, and for models
// whose caches fitcheck does not model under MLX (state-space or linear-attention mixers, multi-latent or
// cross-attention, encoder-decoder models).
MlxEstimate estimate_mlx(const ModelDescription& model, const MlxRequest& request);

// One of the conversions mlx-community publishes, on the request's chip (the Local tab's "Weight formats"
// table under MLX LM; fitcheck local --engine mlx --compare-formats).
struct MlxFormatRow {
  std::string weights;  // as --weights takes it: "bf16" (the config's dtype, unquantized), "8bit", ..., "3bit"
  bool chosen = false;  // the request's own weights (its group size kept for every quantized row)
  MlxEstimate estimate;
};

// The model unquantized and at 8, 6, 5, 4 and 3 bits (the request's group size), the rest of the request as given.
std::vector<MlxFormatRow> compare_mlx_formats(const ModelDescription& model, const MlxRequest& request);

// How mlx-community names a conversion of the model with these settings: "4bit", "4bit-g32" (a group
// other than 64), or the unquantized dtype ("bf16", "fp16", "fp32": the request's, else the config's).
std::string mlx_conversion_suffix(const ModelDescription& model, const MlxRequest& request);

// `fitcheck local --engine mlx` options as key/value pairs: engine (mlx), gpu (one Apple chip), weights
// (2bit, 3bit, 4bit, 5bit, 6bit, 8bit; or bf16, fp16, fp32 unquantized; default 4bit, mlx_lm.convert -q),
// group_size (32, 64, 128; 64), prompt_len (512), gen_len (128), prefill_step (2048).
// Throws OptionError naming the option.
MlxRequest parse_mlx_options(const OptionList& options);

// JSON keys: engine ("mlx"), weights, peak_memory_bytes, weight_bytes, kv_cache_bytes, fits,
// working_set_bytes, terms, prompt_tokens_per_second, generation_tokens_per_second, mlx_command,
// assumptions (docs/local.md, "MLX LM on Apple silicon").
std::string mlx_report_json(const MlxEstimate& estimate);
std::string mlx_report_json(std::string_view config_json_text, const OptionList& options,
                            std::string_view model_name = "model");

// compare_mlx_formats for a config.json and `fitcheck local --engine mlx` options (weights names the row marked
// chosen): {"engine": "mlx", "formats": [{weights, chosen, weight_bytes, peak_memory_bytes, fits,
// generation_tokens_per_second, prompt_tokens_per_second, mlx_command}]} (docs/local.md).
std::string mlx_formats_json(std::string_view config_json_text, const OptionList& options,
                             std::string_view model_name = "model");

}  // namespace fitcheck
