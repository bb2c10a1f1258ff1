// SPDX-License-Identifier: MIT
// `fitcheck local --engine mlx` options into an MlxRequest; every refusal names its option.
#include <string>

#include "config/config_fields.hpp"
#include "fitcheck/mlx.hpp"
#include "fitcheck/options.hpp"

namespace fitcheck {

MlxRequest parse_mlx_options(const OptionList& options) {
  OptionReader reader(options);
  MlxRequest r;
  const auto engine = reader.text("engine");
  if (!engine || *engine != "mlx")
    throw OptionError("engine", "option 'engine': parse_mlx_options reads --engine mlx requests");
  const auto gpu = reader.text("gpu");
  if (!gpu) throw OptionError("gpu", "option 'gpu' is required with --engine mlx: an Apple chip (see fitcheck gpus)");
  const auto custom = read_custom_gpu_options(reader, is_custom_gpu_name(*gpu));
  r.gpu = *resolve_gpu_option("gpu", *gpu, custom);
  if (const auto weights = reader.text("weights")) {
    const std::string& w = *weights;
    if (w == "bf16" || w == "fp16" || w == "fp32") {
      r.quantization.bits = 0;
      r.dtype = w;
    } else if (w.size() == 4 && w.substr(1) == "bit" && w[0] >= '2' && w[0] <= '8' && w[0] != '7') {
      r.quantization.bits = w[0] - '0';
    } else {
      throw OptionError("weights",
                        "option 'weights': MLX weights are 2bit, 3bit, 4bit, 5bit, 6bit or 8bit (mlx_lm.convert "
                        "-q), or bf16, fp16, fp32 unquantized, got '" +
                            detail::printable(w) + "'");
    }
  }
  r.quantization.group_size = reader.count("group_size", 64, 1, 1 << 20);
  r.prompt_len = reader.count("prompt_len", 512, 1, std::int64_t{1} << 24);
  r.gen_len = reader.count("gen_len", 128, 2, std::int64_t{1} << 24);
  r.prefill_step = reader.count("prefill_step", 2048, 1, std::int64_t{1} << 20);
  for (const char* llama_only : {"ram_gib",   "cpu",          "ram_mts",         "ram_channels",    "context",
                                 "parallel",  "kv_dtype",     "flash_attention", "kv_offload",      "n_gpu_layers",
                                 "n_cpu_moe", "tensor_split", "backend",         "cuda_mmq",        "ubatch",
                                 "batch",     "mmproj",       "mmproj_offload",  "llama_cpp_build", "depth",
                                 "threads",   "mmap"})
    if (reader.text(llama_only))
      throw OptionError(llama_only, std::string("option '") + llama_only +
                                        "' is llama.cpp's; --engine mlx takes gpu, weights, group_size, prompt_len, "
                                        "gen_len and prefill_step (the chip's unified memory holds everything)");
  reader.finish();
  return r;
}

}  // namespace fitcheck
