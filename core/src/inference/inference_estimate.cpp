// SPDX-License-Identifier: MIT
// The inference estimate: memory, verdict, capacity answers and latency of one request, every
// default applied here and nowhere in the writers.
#include "fitcheck/inference.hpp"

#include <algorithm>
#include <string>

#include "fitcheck/config.hpp"
#include "fitcheck/quantization.hpp"
#include "fitcheck/serving.hpp"
#include "support/number_text.hpp"

namespace fitcheck {
namespace {

// The engine's settings in the workload and the latency assumptions, each unless the request gives
// it, with one assumption line per rule (docs/serving.md, "Engine profiles").
void apply_engine_profile(const EngineProfile& profile, const InferenceRequest& request, const Accelerator& gpu,
                          const ModelDescription& model, const std::vector<WeightTensor>& tensors, InferenceWorkload& w,
                          LatencyAssumptions& latency, std::vector<std::string>& notes) {
  notes.push_back(std::string("engine ") + engine_kind_id(profile.kind) + ": " + profile.version);
  for (const std::string& rule : profile.rules)
    notes.push_back(std::string(engine_kind_id(profile.kind)) + ": " + rule);
  if (const std::string padding = apply_expert_padding(profile.kind, gpu, model, w); !padding.empty())
    notes.push_back(std::string(engine_kind_id(profile.kind)) + ": " + padding);
  if (!request.prefill_chunk_given && (profile.chunked_prefill || profile.token_budget_floor > 0) &&
      profile.max_num_batched_tokens > 0)
    w.prefill_chunk_tokens = engine_token_budget(profile, w.context_tokens);
  if (!request.kv_block_given) w.kv_block_tokens = profile.kv_block_tokens;
  for (std::string& line : apply_engine_state_rules(profile, model, w)) notes.push_back(std::move(line));
  if (!request.gpu_memory_utilization_given) {
    if (profile.kv_budget == KvBudgetRule::share_of_free) {
      // TensorRT-LLM: weights and activation buffers first, then fraction x what is free for KV.
      const InferenceMemoryTotals memory = inference_memory(model, tensors, w).totals;
      const double total = static_cast<double>(gpu_memory_limit_bytes(gpu));
      const double non_kv = static_cast<double>(memory.total_bytes_per_gpu - memory.kv_cache_bytes);
      w.gpu_memory_utilization =
          std::clamp((non_kv + profile.memory_fraction * std::max(0.0, total - non_kv)) / total, 0.01, 1.0);
    } else {
      w.gpu_memory_utilization = profile.memory_fraction;
    }
    notes.push_back(std::string(engine_kind_id(profile.kind)) + ": memory budget " +
                    detail::three_significant_digits(w.gpu_memory_utilization) + " of the GPU's memory");
  }
  apply_engine_fixed_costs(profile, latency);
  if (request.hf_static_cache) {
    latency.kv_cache_concatenated = false;
    latency.kv_cache_preallocated = true;
    notes.push_back(
        "hf: cache_implementation=\"static\": a StaticCache of prompt + generated tokens, written in place (no "
        "torch.cat); each decode step attends all of them under the mask (cache_utils.py at 004999d9, "
        "StaticLayer.update, get_mask_sizes), the prefill's queries too");
  }
  const KernelEfficiency efficiency = kernel_efficiency(profile.kind, gpu, w.weight_format);
  latency.gemm_row_tiles = efficiency.gemm_row_tiles;
  if (!request.efficiency_given) {
    latency.hbm_efficiency = efficiency.hbm;
    latency.flops_efficiency = efficiency.flops;
    latency.fp8_flops_share = efficiency.fp8_flops_share;
    notes.push_back(std::string(engine_kind_id(profile.kind)) + " on " + gpu_generation_name(gpu_generation(gpu)) +
                    ": " + efficiency.source);
  }
}

// Prefix caching and a speculative draft in the memory: the shared prefix's cache is held once for
// the batch (vLLM/SGLang share its blocks), and the draft's layers hold weights and cache as the
// target's layers do. Taken per token and per layer in proportion; the capacity searches do not see
// them (the assumption says so).
void apply_prefix_and_draft(const ModelDescription& model, const InferenceWorkload& w, const LatencyRequest& lengths,
                            InferenceMemory& memory, std::vector<std::string>& notes) {
  InferenceMemoryTotals& t = memory.totals;
  const std::int64_t prefix = lengths.shared_prefix_tokens;
  if (prefix > 0 && w.batch_size > 1 && w.context_tokens > 0) {
    const double share = static_cast<double>(prefix) / static_cast<double>(w.context_tokens) *
                         static_cast<double>(w.batch_size - 1) / static_cast<double>(w.batch_size);
    const auto saved = static_cast<std::int64_t>(share * static_cast<double>(t.kv_cache_bytes));
    t.kv_cache_bytes -= saved;
    t.total_bytes_per_gpu -= saved;
    for (MemoryTerm& term : memory.terms)
      if (term.name == "kv_cache") {
        term.bytes -= saved;
        term.formula += " - " + std::to_string(saved) + " B: the " + std::to_string(prefix) +
                        "-token shared prefix held once, not by each of the " + std::to_string(w.batch_size) +
                        " sequences (prefix caching)";
      }
    notes.push_back("prefix caching: the first " + std::to_string(prefix) +
                    " prompt tokens are shared; one sequence computes them, the others prefill only the rest and "
                    "share its cache blocks (vLLM automatic prefix caching, SGLang RadixAttention)");
  }
  const SpeculativeDecoding& spec = lengths.speculative;
  if (spec.draft_tokens > 0) {
    std::int64_t decoder_layers = 0;
    for (const LayerShape& kind : model.layer_kinds) decoder_layers += kind.layer_count;
    const double per_layer = decoder_layers > 0 ? spec.draft_layers / static_cast<double>(decoder_layers) : 0;
    const auto draft = static_cast<std::int64_t>(per_layer * static_cast<double>(t.weight_bytes + t.kv_cache_bytes) *
                                                 static_cast<double>(w.layout.pipeline_parallel));
    t.total_bytes_per_gpu += draft;
    memory.terms.push_back({"draft", draft,
                            detail::as_given(spec.draft_layers) + " draft layer(s) / " +
                                std::to_string(decoder_layers) +
                                " layers x (weights + KV cache of this GPU): the speculative draft's weights "
                                "and cache, sized as the target's layers (estimate)"});
    const std::string rate = detail::as_given(spec.acceptance_rate);
    notes.push_back("speculative decoding: " + std::to_string(spec.draft_tokens) +
                    " draft tokens per step, acceptance " + rate +
                    ": (1 - a^(k+1)) / (1 - a) = " + detail::three_significant_digits(expected_tokens_per_step(spec)) +
                    " tokens per step (Leviathan et al. 2023, eq. 1); a step is k draft passes of " +
                    detail::as_given(spec.draft_layers) +
                    " layer(s) and one verify pass of k + 1 tokens per sequence; capacity answers leave the draft out");
  }
}

}  // namespace

InferenceEstimate estimate_inference_without_fit_changes(const ModelDescription& model,
                                                         const std::vector<WeightTensor>& tensors,
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
    // Each image becomes image tokens of the prompt, cached and prefilled like text: Gemma-3's
    // mm_tokens_per_image (Gemma 3n's vision_soft_tokens_per_image) at any resolution (the processor resizes to the
    // tower's image_size), Qwen2-VL's merged patches of the image as its processor resizes it, Llama 4's tiles of its
    // best-fit canvas, LLaVA's patches of its crop (LLaVA-NeXT: and of its best-fit canvas), Mistral-3's
    // merged patches and row breaks (image_tokens, model.hpp).
    if (!model.vision)
      throw OptionError(
          "images",
          "option 'images' needs a vision model whose tower fitcheck counts (Gemma-3, Qwen2-VL, Qwen3-VL, Llama 4, "
          "LLaVA, LLaVA-NeXT, PaliGemma, Mistral-3, Idefics3, SmolVLM, InternVL, Gemma 3n, Llama 3.2 Vision); "
          "model_type '" +
              model.model_type + "' has none");
    std::int64_t per_image = 0;
    try {
      per_image = image_tokens(*model.vision, request.image_width, request.image_height);
    } catch (const std::invalid_argument& error) {
      throw OptionError("image_width", error.what());
    }
    estimate.images = request.images;
    estimate.image_tokens = request.images * per_image;
    const std::string& kind = model.vision->kind;
    if (kind == "mllama") {
      // Llama 3.2 Vision: each image is one <|image|> token of the prompt (MllamaProcessor); its tiles'
      // tokens are the keys and values of the cross-attention layers, computed once per sequence.
      estimate.workload.cross_attention_tokens = estimate.image_tokens;
      estimate.workload.context_tokens += request.images;
      estimate.lengths.prompt_tokens += request.images;
      const std::string size = std::to_string(request.image_width) + " x " + std::to_string(request.image_height);
      estimate.assumptions.push_back(
          std::to_string(request.images) + " image(s) per request x " + std::to_string(per_image) + " tokens (a " +
          size + " image" + (request.image_size_given ? "" : ", the default size") +
          ", tiled as Llama 3.2 Vision's processor does) = " + std::to_string(estimate.image_tokens) +
          " image tokens each sequence's cross-attention layers attend to (their keys and values cached once per "
          "sequence, projected in prefill); the prompt holds one <|image|> token per image; the vision encoder's "
          "compute is not included (its weights are in the memory)");
    } else {
      estimate.workload.context_tokens += estimate.image_tokens;
      estimate.lengths.prompt_tokens += estimate.image_tokens;
      const bool by_size = kind == "qwen2_vl" || kind == "qwen3_vl" || kind == "llama4" || kind == "pixtral" ||
                           kind == "llava_next" || kind == "idefics3" || kind == "internvl";
      const char* processor = kind == "llama4"       ? "Llama 4"
                              : kind == "pixtral"    ? "Pixtral"
                              : kind == "llava_next" ? "LLaVA-NeXT"
                              : kind == "qwen3_vl"   ? "Qwen3-VL"
                              : kind == "idefics3"   ? "Idefics3"
                              : kind == "internvl"   ? "InternVL"
                                                     : "Qwen2-VL";
      const char* fixed = kind == "clip" || kind == "paligemma"
                              ? " tokens (the patches of the vision_config.image_size crop)"
                          : kind == "mobilenetv5" ? " tokens (vision_soft_tokens_per_image)"
                                                  : " tokens (mm_tokens_per_image)";
      const std::string size = std::to_string(request.image_width) + " x " + std::to_string(request.image_height);
      estimate.assumptions.push_back(
          std::to_string(request.images) + " image(s) per request x " + std::to_string(per_image) +
          (by_size ? " tokens (a " + size + " image" + (request.image_size_given ? "" : ", the default size") +
                         ", resized as " + processor + "'s processor does)"
                   : std::string(fixed)) +
          " = " + std::to_string(estimate.image_tokens) +
          " tokens join each prompt and its context (KV cache, prefill); the vision encoder's compute is not "
          "included (its weights are in the memory)");
    }
  } else if (request.image_size_given) {
    throw OptionError("image_width",
                      "options 'image_width' and 'image_height' size the images option's images; "
                      "give images as well");
  }
  LatencyAssumptions latency_assumptions;
  if (request.gpu) latency_assumptions = latency_assumptions_for(request, *request.gpu);
  if (request.engine && request.gpu) {
    estimate.engine = engine_profile(*request.engine, *request.gpu, estimate.workload.layout);
    if (request.vllm_flashinfer_sampler) use_flashinfer_sampler(*estimate.engine);
    estimate.hf_static_cache = request.hf_static_cache;
    estimate.max_model_len = request.max_model_len;
    apply_engine_profile(*estimate.engine, request, *request.gpu, model, tensors, estimate.workload,
                         latency_assumptions, estimate.assumptions);
  } else if (request.engine) {
    estimate.assumptions.push_back(
        "the engine option needs a GPU: its profile (budget, scheduler, step costs) "
        "depends on the device");
  }
  const InferenceWorkload& w = estimate.workload;
  estimate.memory = inference_memory(model, tensors, w);
  apply_prefix_and_draft(model, w, estimate.lengths, estimate.memory, estimate.assumptions);
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

  const PreparedLatencyModel prepared = prepare_latency_model(model, tensors, w.weight_format, w.weight_options);
  on_gpu.latency.assumptions = latency_assumptions;
  on_gpu.latency.explanation = explain_latency(prepared, w, gpu, estimate.lengths, on_gpu.latency.assumptions);
  return estimate;
}

void add_fit_changes(const ModelDescription& model, const std::vector<WeightTensor>& tensors,
                     InferenceEstimate& estimate) {
  if (!estimate.on_gpu) return;
  InferenceOnGpu& on_gpu = *estimate.on_gpu;
  if (!on_gpu.verdict.fits)
    on_gpu.fit_changes = fit_changes(model, tensors, estimate.workload, *on_gpu.gpu, on_gpu.capacity);
  on_gpu.fit_changes_looked_for = true;
}

InferenceEstimate estimate_inference(const ModelDescription& model, const std::vector<WeightTensor>& tensors,
                                     const InferenceRequest& request) {
  InferenceEstimate estimate = estimate_inference_without_fit_changes(model, tensors, request);
  add_fit_changes(model, tensors, estimate);
  add_engine_start_check(model, tensors, estimate);
  return estimate;
}

InferenceEstimate estimate_inference(std::string_view config_json_text, const OptionList& options) {
  const InferenceRequest request = parse_inference_options(options);
  const ModelDescription model = parse_hf_config(config_json_text);
  return estimate_inference(model, weight_tensors(model), request);
}

InferenceEstimate estimate_inference_without_fit_changes(std::string_view config_json_text, const OptionList& options) {
  const InferenceRequest request = parse_inference_options(options);
  const ModelDescription model = parse_hf_config(config_json_text);
  return estimate_inference_without_fit_changes(model, weight_tensors(model), request);
}

}  // namespace fitcheck
