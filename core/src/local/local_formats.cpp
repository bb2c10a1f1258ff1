// SPDX-License-Identifier: MIT
// The model at each of llama.cpp's common weight types on one machine: the question "which file do I
// download", answered by the same placement and speed as one type's report.
#include <algorithm>
#include <array>

#include "fitcheck/local.hpp"

namespace fitcheck {

std::vector<LocalFormatRow> compare_local_formats(const ModelDescription& description, const LocalRequest& request,
                                                  std::optional<WeightFormat> chosen) {
  // The types llama.cpp's own and the large community repositories publish for most models, largest first.
  constexpr std::array kCommonTypes = {WeightFormat::fp16,        WeightFormat::gguf_q8_0,   WeightFormat::gguf_q6_k,
                                       WeightFormat::gguf_q5_k_m, WeightFormat::gguf_q4_k_m, WeightFormat::gguf_iq4_xs,
                                       WeightFormat::gguf_q3_k_m, WeightFormat::gguf_q2_k};
  LocalRequest fitted = request;
  fitted.n_gpu_layers.reset();
  fitted.n_cpu_moe = 0;
  std::vector<WeightFormat> formats(kCommonTypes.begin(), kCommonTypes.end());
  // MXFP4_MOE (llama-quantize): routed experts in MXFP4, the rest in Q8_0, as gpt-oss ships.
  const bool moe = std::any_of(description.layer_kinds.begin(), description.layer_kinds.end(),
                               [](const LayerShape& kind) { return kind.is_moe(); });
  if (moe) formats.push_back(WeightFormat::gguf_mxfp4_moe);
  std::vector<LocalFormatRow> rows;
  rows.reserve(formats.size());
  for (WeightFormat format : formats) {
    const LocalModel model = local_model_from_config(description, format);
    LocalRequest each = fitted;
    each.model_path = request.model_name + "-" + weight_format_info(format).id + ".gguf";
    LocalFormatRow row;
    row.format = format;
    row.chosen = chosen == format;
    row.estimate = estimate_local(model, each);
    for (const LocalDeviceUse& use : row.estimate.placement.devices) row.model_buffer_bytes += use.model_buffer_bytes;
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace fitcheck
