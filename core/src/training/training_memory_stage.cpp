// SPDX-License-Identifier: MIT
// Activations of one pipeline stage: its layers' stored activations times the micro-batches in
// flight under the schedule, the layers recomputation keeps as inputs only, the layer being
// rebuilt during backward, the first stage's embedding mask and the last stage's loss; and what
// PyTorch's caching allocator holds for them.
#include <algorithm>

#include "training/activation_terms.hpp"

namespace fitcheck {
namespace detail {

using namespace activations;

// PyTorch's caching allocator (c10/cuda/CUDACachingAllocator.cpp, pytorch 001074d2): every request
// rounds up to 512 B (kMinBlockSize); a request of 10 MiB (kMinLargeAlloc) or more gets its own
// segment rounded up to 2 MiB (kRoundLarge), whose tail below 1 MiB (kSmallSize) is not split off.
// Smaller requests are carved from shared 2 MiB / 20 MiB segments, so only their 512 B rounding stays.
std::int64_t allocator_block_bytes(std::int64_t bytes) {
  constexpr std::int64_t kMinBlock = 512, kRoundLarge = 2 << 20, kMinLargeAlloc = 10 << 20;
  if (bytes <= 0) return 0;
  if (bytes >= kMinLargeAlloc) return ceil_div(bytes, kRoundLarge) * kRoundLarge;
  return ceil_div(bytes, kMinBlock) * kMinBlock;
}

std::vector<StageLayerKind> stage_layer_kinds(const ModelDescription& model, std::int64_t first_layer,
                                              std::int64_t end_layer) {
  std::vector<StageLayerKind> kinds;
  for (std::int64_t i = first_layer; i < end_layer; ++i) {
    const std::size_t kind = model.layer_kind_of_layer[static_cast<std::size_t>(i)];
    const auto at = std::lower_bound(kinds.begin(), kinds.end(), kind,
                                     [](const StageLayerKind& k, std::size_t wanted) { return k.kind < wanted; });
    if (at != kinds.end() && at->kind == kind)
      at->layers += 1;
    else
      kinds.insert(at, {kind, 1});
  }
  return kinds;
}

StageActivations stage_activations(const ModelDescription& model, const TrainingWorkload& workload,
                                   std::int64_t first_layer, std::int64_t end_layer, std::int64_t stage) {
  return stage_activations(model, workload, stage_layer_kinds(model, first_layer, end_layer), stage, true);
}

StageActivations stage_activations(const ModelDescription& model, const TrainingWorkload& workload,
                                   const std::vector<StageLayerKind>& kinds, std::int64_t stage, bool with_text) {
  StageActivations out;
  const std::int64_t pp = workload.layout.pipeline_parallel;
  const std::int64_t v = workload.virtual_pipeline_stages;
  const std::int64_t m = workload.micro_batches_per_step;

  // Which layers keep only their input. Megatron --recompute-method uniform with num_layers k:
  // every group of k layers keeps its first input and is recomputed whole; block: the first k
  // layers of the stage recompute and the rest keep everything (transformer_config.py l.543-555).
  // torchtitan selective_ac_option N: every N-th block is wrapped in full AC (9dec370
  // parallelize_llama.py l.276-283). Other modes apply to every layer alike.
  std::int64_t stage_layers = 0;
  for (const StageLayerKind& k : kinds) stage_layers += k.layers;
  TrainingWorkload kept = workload;  // the layers that keep their activations
  std::int64_t checkpointed = 0, checkpoints = 0, recomputed_together = 1;
  if (workload.recompute == Recompute::full) {
    kept.recompute = Recompute::none;
    const std::int64_t k = std::max<std::int64_t>(1, workload.recompute_num_layers);
    if (workload.recompute_method == RecomputeMethod::block) {
      checkpointed = std::min(k, stage_layers);
      checkpoints = checkpointed;
    } else {
      checkpointed = stage_layers;
      checkpoints = ceil_div(stage_layers, k);
      recomputed_together = std::min(k, stage_layers);
    }
  } else if (workload.recompute == Recompute::selective_layer) {
    kept.recompute = Recompute::none;
    checkpointed = stage_layers / std::max<std::int64_t>(1, workload.recompute_frequency);
    checkpoints = checkpointed;
  }
  TrainingWorkload input_only = workload;
  input_only.recompute = Recompute::full;

  // Kinds ascend; the heaviest is the first of the largest.
  std::int64_t kept_bytes = 0, input_bytes = 0, heaviest_bytes = -1, kept_blocks = 0, input_blocks = 0;
  std::size_t heaviest = 0;
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    const LayerShape& layer = model.layer_kinds[kinds[i].kind];
    std::int64_t blocks = 0;
    const std::int64_t bytes = layer_activation_bytes(model, layer, kept, nullptr, &blocks);
    kept_bytes += kinds[i].layers * bytes;
    kept_blocks += kinds[i].layers * blocks;
    if (checkpointed > 0) {
      std::int64_t input_block = 0;
      input_bytes += kinds[i].layers * layer_activation_bytes(model, layer, input_only, nullptr, &input_block);
      input_blocks += kinds[i].layers * input_block;
    }
    if (bytes > heaviest_bytes) {
      heaviest_bytes = bytes;
      heaviest = i;
    }
  }
  // Mixed stages: the average layer of each kind mix (kinds share the stage in proportion).
  std::int64_t layer_bytes = kept_bytes, layer_blocks = kept_blocks;
  // torchtune's activation offloading (OffloadActivations, pytorch/torchtune 1814feb1
  // torchtune/training/_activation_offloading.py): every tensor autograd saves in the model's
  // forward, above 1 KiB and outside the output head, is copied to CPU memory and brought back in
  // backward. With whole-layer recompute those are the checkpointed layer inputs.
  const bool offloaded = workload.offload_activations && checkpointed > 0;
  if (checkpointed > 0 && stage_layers > 0) {
    const std::int64_t inputs = ceil_div(checked_mul(checkpoints, input_bytes), stage_layers);
    layer_bytes =
        (offloaded ? 0 : inputs) + ceil_div(checked_mul(stage_layers - checkpointed, kept_bytes), stage_layers);
    layer_blocks = (offloaded ? 0 : ceil_div(checked_mul(checkpoints, input_blocks), stage_layers)) +
                   ceil_div(checked_mul(stage_layers - checkpointed, kept_blocks), stage_layers);
    if (offloaded) out.cpu_offload_bytes = inputs;
  }
  // Megatron's CPU offloading (Transformer Engine get_cpu_offload_context, layer by layer): the
  // activations of cpu_offloaded_layers of the stage's layers live in CPU memory between their forward
  // and backward; one layer's are on the GPU while they are copied out or brought back.
  const std::int64_t offloaded_layers = std::min(workload.cpu_offloaded_layers, stage_layers);
  std::int64_t offload_transit_bytes = 0;
  if (offloaded_layers > 0 && checkpointed == 0 && stage_layers > 0) {
    const std::int64_t on_cpu_bytes = ceil_div(checked_mul(offloaded_layers, kept_bytes), stage_layers);
    layer_bytes = kept_bytes - on_cpu_bytes;
    layer_blocks = kept_blocks - ceil_div(checked_mul(offloaded_layers, kept_blocks), stage_layers);
    out.cpu_offload_bytes = on_cpu_bytes;
    offload_transit_bytes = heaviest_bytes;
  }
  if (with_text && !kinds.empty())
    layer_activation_bytes(model, model.layer_kinds[kinds[heaviest].kind], workload, &out.heaviest_layer_terms);

  // 1F1B (Narayanan et al. 2021 §2.2): stage s holds pp - s micro-batches in flight. Interleaved
  // with v chunks, Megatron-LM's schedule warms up 2(pp - s - 1) + (v - 1)pp chunks, so the first
  // stage holds L(1 + (pp - 1)/(pp v)) layers of activations (Korthikanti et al. 2022 §4.2.3).
  const auto per_layer_text = [&] {
    if (checkpointed > 0)
      return num(checkpoints) + " checkpointed layer inputs (" +
             num(input_bytes / std::max<std::int64_t>(1, stage_layers)) + " B each on average" +
             (offloaded ? ", offloaded to CPU memory: 0 B on the GPU" : "") + ") + " +
             num(stage_layers - checkpointed) + " layers keeping everything (" +
             num(kept_bytes / std::max<std::int64_t>(1, stage_layers)) + " B each on average)";
    std::string text;
    for (const StageLayerKind& k : kinds)
      text += (text.empty() ? "" : " + ") + num(k.layers) + " layers x " +
              num(layer_activation_bytes(model, model.layer_kinds[k.kind], workload, nullptr)) + " B";
    return text;
  };
  std::int64_t bytes = 0, blocks = 0;
  std::int64_t chunks = 0;
  if (v == 1) {
    out.in_flight = pp - stage;
    if (m > 0) out.in_flight = std::min(out.in_flight, m);
    bytes = checked_mul(out.in_flight, layer_bytes);
    blocks = checked_mul(out.in_flight, layer_blocks);
  } else {
    chunks = 2 * (pp - stage - 1) + (v - 1) * pp + 1;
    if (m > 0) chunks = std::min(chunks, m * v);
    out.in_flight = ceil_div(chunks, v);
    bytes = ceil_div(checked_mul(chunks, layer_bytes), v);
    blocks = ceil_div(checked_mul(chunks, layer_blocks), v);
  }
  if (with_text) {
    const std::string formula =
        v == 1 ? num(out.in_flight) + (out.in_flight == 1 ? " micro-batch" : " micro-batches") + " in flight x (" +
                     per_layer_text() + ")"
               : num(chunks) + " model chunks in flight x (" + per_layer_text() + ") / " + num(v) + " chunks per stage";
    out.terms.push_back({"layer activations", bytes, formula + " = " + num(bytes) + " B"});
  }
  out.bytes += bytes;
  out.allocator_blocks += blocks;
  out.cpu_offload_bytes = checked_mul(out.cpu_offload_bytes, out.in_flight);
  if (offload_transit_bytes > 0) {
    if (with_text)
      out.terms.push_back({"offloaded layer in transit", offload_transit_bytes,
                           "one layer's activations on the GPU while they are copied to or from CPU memory = " +
                               num(offload_transit_bytes) + " B"});
    out.bytes += offload_transit_bytes;
    out.allocator_blocks += detail::allocator_block_bytes(offload_transit_bytes);
  }

  // Megatron's selective modules beyond the attention core rebuild what they discarded; the attention
  // core's rebuilt scores (without flash attention) are not counted, as Korthikanti et al. §5 count none.
  const bool modules_rebuilt =
      workload.recompute == Recompute::selective && workload.recompute_modules.beyond_core_attention();
  const bool rebuilds = workload.recompute == Recompute::full || workload.recompute == Recompute::selective_op ||
                        (workload.recompute == Recompute::selective_layer && checkpointed > 0) || modules_rebuilt;
  if (rebuilds && !kinds.empty()) {
    // Recomputing rebuilds a layer's (a uniform group's) full activations for one micro-batch
    // (Chen et al. 2016, Training Deep Nets with Sublinear Memory Cost); per-op selective
    // checkpointing rebuilds what it did not save.
    TrainingWorkload single = workload;
    single.recompute = Recompute::none;
    std::int64_t working = 0;
    for (const StageLayerKind& k : kinds) {
      const LayerShape& layer = model.layer_kinds[k.kind];
      std::int64_t rebuilt = layer_activation_bytes(model, layer, single, nullptr);
      if (workload.recompute == Recompute::selective_op)
        rebuilt = std::max<std::int64_t>(0, rebuilt - layer_activation_bytes(model, layer, workload, nullptr));
      if (modules_rebuilt) {
        // What the modules beyond the attention core discard, rebuilt for one layer.
        TrainingWorkload attention_only = workload;
        attention_only.recompute_modules = RecomputeModules{};
        attention_only.recompute_modules.core_attn = workload.recompute_modules.core_attn;
        rebuilt = std::max<std::int64_t>(0, layer_activation_bytes(model, layer, attention_only, nullptr) -
                                                layer_activation_bytes(model, layer, workload, nullptr));
      }
      working = std::max(working, rebuilt);
    }
    working = checked_mul(working, recomputed_together);
    if (with_text)
      out.terms.push_back({"recomputed layer", working,
                           (recomputed_together > 1 ? num(recomputed_together) + " layers' (one uniform group's)"
                                                    : std::string("one layer's")) +
                               " activations rebuilt during backward = " + num(working) + " B"});
    out.bytes += working;
    out.allocator_blocks += detail::allocator_block_bytes(working);
  }

  const Context c = make_context(workload);
  const std::int64_t h = model.hidden_size;
  std::vector<MemoryTerm> lines;
  std::vector<MemoryTerm>* text_lines = with_text ? &lines : nullptr;
  if (stage == 0 && workload.dropout) {
    // Korthikanti §4.3: the input embedding's dropout mask, per micro-batch in flight. The
    // embedding output itself is the first layer's input, counted with that layer.
    Terms t(c, text_lines);
    t.replicated("embedding", h, [&] { return times(h, 1, "hidden") + " dropout mask"; });
    const std::int64_t emb = checked_mul(t.total(), out.in_flight);
    out.allocator_blocks += checked_mul(t.blocks(), out.in_flight);
    if (with_text)
      out.terms.push_back({"embedding dropout mask", emb, num(out.in_flight) + " x (" + lines.front().formula + ")"});
    out.bytes += emb;
    lines.clear();
  }
  if (stage == pp - 1) {
    // Korthikanti §4.3: final norm (2sbh), output projection input (2sbh), and the logits and
    // cross-entropy buffers as the framework's loss holds them (vocabulary split by tp).
    Terms t(c, text_lines);
    const std::int64_t norms = std::max<std::int64_t>(1, model.final_norms);
    const std::int64_t norm_bytes = activations::norm_saved_bytes(c, model);
    t.replicated("final norm input", norms * h * norm_bytes,
                 [&] { return num(norms) + " x " + times(h, norm_bytes, "hidden"); });
    // The output head's input is kept for its weight gradient, or (LitGPT QLoRA) by the
    // quantized head's MatMul4Bit.
    const bool head_input_kept =
        workload.lora.rank == 0 || (c.base_inputs_saved && training_framework(workload).qlora_quantizes_output_head);
    if (head_input_kept)
      t.replicated("lm_head input", h * c.matmul_input, [&] { return times(h, c.matmul_input, "hidden"); });
    const std::int64_t vocab = ceil_div(model.vocab_size, c.tp);
    // The framework's loss: what its logits, their fp32 copy, the saved softmax and the gradient
    // hold per logit element at the loss's peak (training_framework_profile, with sources).
    const TrainingFrameworkProfile& framework = training_framework(workload);
    const TrainingLoss loss = training_loss(workload);
    const std::int64_t per_logit = loss.bytes_per_logit;
    t.split([&] { return std::string("logits and cross-entropy (") + framework.id + " loss)"; }, vocab * per_logit,
            [&] {
              return num(vocab) + " vocab entries x " + num(per_logit) + " B" +
                     (c.tp > 1 ? " (vocabulary split by tp)" : "") + ": " + loss.rule;
            });
    if (loss.chunks > 0 && loss.chunk_bytes_per_logit > 0) {
      // The chunk being computed: its tokens (of this GPU's b x s/cp) x vocabulary x its bytes.
      const std::int64_t chunk_tokens = ceil_div(c.tokens, loss.chunks);
      const std::int64_t chunk = checked_mul(checked_mul(chunk_tokens, vocab), loss.chunk_bytes_per_logit);
      if (with_text)
        lines.push_back({"logits chunk being computed (loss)", chunk,
                         num(c.tokens) + " tokens / " + num(loss.chunks) + " chunks = " + num(chunk_tokens) +
                             " tokens x " + num(vocab) + " vocab entries x " + num(loss.chunk_bytes_per_logit) +
                             " B = " + num(chunk) + " B"});
      out.bytes += chunk;
      out.allocator_blocks += detail::allocator_block_bytes(chunk);
    }
    if (pp > 1 && framework.pipeline_keeps_outputs) {
      // Every micro-batch's logits of one schedule step, the one in backward included, stay on the
      // last stage: --micro-batches, else the schedule's default of pp (9dec370
      // torchtitan/parallelisms/pipelining_utils.py l.79-81).
      const std::int64_t micro_batches = m > 0 ? m : pp;
      const std::int64_t one = checked_mul(checked_mul(c.tokens, vocab), c.element);
      const std::int64_t outputs = checked_mul(micro_batches, one);
      if (with_text)
        lines.push_back({"pipeline outputs kept (logits of every micro-batch)", outputs,
                         num(micro_batches) + " micro-batches x " + num(c.tokens) + " tokens x " + num(vocab) +
                             " vocab entries x " + num(c.element) + " B = " + num(outputs) +
                             " B: " + framework.pipeline_outputs_rule});
      out.bytes += outputs;
      out.allocator_blocks += checked_mul(micro_batches, detail::allocator_block_bytes(one));
    }
    out.bytes += t.total();
    out.allocator_blocks += t.blocks();
    for (auto& line : lines) out.terms.push_back(std::move(line));
  }
  return out;
}

}  // namespace detail
}  // namespace fitcheck
