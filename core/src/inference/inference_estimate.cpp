// SPDX-License-Identifier: MIT
// The inference estimate: memory, verdict, capacity answers and latency of one request, every
// default applied here and nowhere in the writers.
#include "fitcheck/inference.hpp"

#include "fitcheck/config.hpp"
#include "fitcheck/quantization.hpp"

namespace fitcheck {

InferenceEstimate estimate_inference(const ModelDescription& model, const std::vector<WeightTensor>& tensors,
                                     const InferenceRequest& request) {
  InferenceEstimate estimate;
  estimate.model_type = model.model_type;
  estimate.parameter_count_exact = model.parameter_count_exact();
  estimate.guessed_fields = model.guessed_fields;
  estimate.workload = request.workload;
  estimate.lengths = request.lengths;
  estimate.custom_gpu = request.custom_gpu;
  estimate.assumptions = model.assumptions;
  if (!request.weight_format_given) {
    const NativeWeightFormat native = native_weight_format(model);
    estimate.workload.weight_format = native.format;
    estimate.workload.weight_options = native.options;
    estimate.weight_format_from_checkpoint = true;
    estimate.assumptions.push_back(native.explanation + " (choose another with the weights option)");
  }
  if (request.images > 0) {
    // Each image becomes tokens_per_image tokens of the prompt (Gemma-3: mm_tokens_per_image, the
    // same at every resolution: the processor resizes to the tower's image_size): they are cached
    // and prefilled like text.
    if (!model.vision)
      throw OptionError("images",
                        "option 'images' needs a vision model whose tower fitcheck counts (Gemma-3); "
                        "model_type '" +
                            model.model_type + "' has none");
    estimate.images = request.images;
    estimate.image_tokens = request.images * model.vision->tokens_per_image;
    estimate.workload.context_tokens += estimate.image_tokens;
    estimate.lengths.prompt_tokens += estimate.image_tokens;
    estimate.assumptions.push_back(
        std::to_string(request.images) + " image(s) per request x " + std::to_string(model.vision->tokens_per_image) +
        " tokens (mm_tokens_per_image) = " + std::to_string(estimate.image_tokens) +
        " tokens join each prompt and its context (KV cache, prefill); the vision encoder's own weights and compute "
        "are not included");
  }
  const InferenceWorkload& w = estimate.workload;
  estimate.memory = inference_memory(model, tensors, w);
  estimate.assumptions.insert(estimate.assumptions.end(), estimate.memory.assumptions.begin(),
                              estimate.memory.assumptions.end());
  if (!request.gpu) {
    estimate.assumptions.push_back("no GPU chosen: capacity answers (max batch, max context, fewest GPUs) need one");
    return estimate;
  }

  const Accelerator& gpu = *request.gpu;
  InferenceOnGpu& on_gpu = estimate.on_gpu.emplace();
  on_gpu.gpu = &gpu;
  on_gpu.verdict.budget_bytes = memory_budget_bytes(gpu, w.gpu_memory_utilization);
  on_gpu.verdict.fits = estimate.memory.totals.total_bytes_per_gpu <= on_gpu.verdict.budget_bytes;
  on_gpu.verdict.headroom_bytes = on_gpu.verdict.budget_bytes - estimate.memory.totals.total_bytes_per_gpu;

  InferenceCapacity& capacity = on_gpu.capacity;
  capacity.max_batch_size = max_batch_size(model, tensors, w, gpu);
  capacity.max_context_length = max_context_tokens(model, tensors, w, gpu);
  capacity.min_gpus = min_gpus(model, tensors, w, gpu);
  InferenceWorkload decode = w;
  decode.prefill_chunk_tokens = 1;
  capacity.decode_max_batch_size = max_batch_size(model, tensors, decode, gpu);
  if (!on_gpu.verdict.fits) on_gpu.fit_changes = fit_changes(model, tensors, w, gpu, capacity);

  const PreparedLatencyModel prepared = prepare_latency_model(model, tensors, w.weight_format, w.weight_options);
  on_gpu.latency.assumptions = latency_assumptions_for(request, gpu);
  on_gpu.latency.explanation = explain_latency(prepared, w, gpu, estimate.lengths, on_gpu.latency.assumptions);
  return estimate;
}

InferenceEstimate estimate_inference(std::string_view config_json_text, const OptionList& options) {
  const InferenceRequest request = parse_inference_options(options);
  const ModelDescription model = parse_hf_config(config_json_text);
  return estimate_inference(model, weight_tensors(model), request);
}

}  // namespace fitcheck
