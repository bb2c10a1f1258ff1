// SPDX-License-Identifier: MIT
// Training step time: compute from the model's real shapes, the collectives of
// training_communication.cpp, the pipeline bubble. Formulas and sources: docs/latency.md.
#include "fitcheck/training_time.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "fitcheck/options.hpp"
#include "training/training_communication.hpp"
#include "training/training_flops.hpp"
#include "training/training_kernels.hpp"

namespace fitcheck {
namespace {

// A workload the step time cannot describe is refused naming the training option that sets it
// (parse_training_options), as the memory estimate's refusals do.
void check(bool ok, const char* option, const std::string& message) {
  if (!ok) throw OptionError(option, "option '" + std::string(option) + "': " + message);
}

// Routed experts with biases (gpt-oss): the expert's weights hold more than its matrices (the
// model is prepared at bf16, 2 B per parameter).
bool expert_has_biases(const LatencyLayerKind& k) { return k.expert.bytes > 2 * k.expert.matrix_params; }

// The recipes a training step can run, in the order the missing-rate note lists their rates.
constexpr PrecisionRecipe kTrainableRecipes[] = {PrecisionRecipe::bf16_mixed, PrecisionRecipe::fp16_mixed,
                                                 PrecisionRecipe::fp32, PrecisionRecipe::fp8};

std::string tera_flops(double flops_per_second) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.4g TFLOP/s", flops_per_second / 1e12);
  return buffer;
}

// The attention core runs at the 16-bit rate: bf16, or fp16 on chips without bf16 (Volta, Turing).
double sixteen_bit_rate(const Accelerator& gpu) {
  const double bf16 = peak_flops_per_second(gpu, ComputeDtype::bf16);
  return bf16 > 0 ? bf16 : peak_flops_per_second(gpu, ComputeDtype::fp16);
}

// The layers' elementwise kernels: the framework's own hand-fused kernels, else eager PyTorch,
// fused by TorchInductor under --compile.
ElementwiseKernels layer_kernels(const TrainingWorkload& w) {
  const TrainingFrameworkProfile& f = training_framework(w);
  if (f.elementwise_kernels == ElementwiseKernels::fused) return ElementwiseKernels::fused;
  return w.compile ? ElementwiseKernels::compiled : ElementwiseKernels::eager;
}

// The loss's kernels: fused frameworks fuse it; --compile covers it where the framework compiles it.
ElementwiseKernels loss_kernels(const TrainingWorkload& w) {
  const TrainingFrameworkProfile& f = training_framework(w);
  if (f.elementwise_kernels == ElementwiseKernels::fused && !f.eager_loss) return ElementwiseKernels::fused;
  return w.compile && !w.eager_loss && f.compile_covers_loss ? ElementwiseKernels::compiled : ElementwiseKernels::eager;
}

}  // namespace

AttentionEfficiency attention_efficiency_default(const Accelerator& gpu, const TrainingWorkload& w) {
  // The generation from the chip's rates (a user-defined copy of a catalog GPU gets its rates):
  // fp8 without fp4 is Hopper (and Ada), fp4 Blackwell. FlashAttention's published rates count
  // the backward as 2.5 forwards; each share below weights forward and backward 1 : 2.5.
  const bool fp8 = peak_flops_per_second(gpu, ComputeDtype::fp8) > 0;
  const bool fp4 = peak_flops_per_second(gpu, ComputeDtype::fp4) > 0;
  if (!fp8) return {0.5, "FlashAttention-2 (50-73% of A100 peak, Dao 2023; the backward-bound low end)"};
  switch (training_attention_kernel(w)) {
    case AttentionKernel::cudnn:
      if (!fp4)
        return {0.55,
                "cuDNN fused attention, FlashAttention-3-class on Hopper (Shah et al. 2024: 75% forward, backward "
                "1.5x FlashAttention-2)"};
      [[fallthrough]];
    case AttentionKernel::flash_attn:
      return {0.34,
              "FlashAttention-2 on Hopper and later (Shah et al. 2024, Figures 5-6, head dim 128 at 16k: forward 370, "
              "backward 322 TFLOP/s)"};
    case AttentionKernel::sdpa_flash:
      break;
  }
  return {0.28,
          "PyTorch SDPA flash backend on Hopper and later (pytorch/benchmark d5f0a12b, TritonBench flash_attention on "
          "H100: sdpa forward 304 TFLOP/s at 16k, head dim 128; backward at FlashAttention-2's 322 / 370 of its "
          "forward, Shah et al. 2024)"};
}

double training_flops_efficiency(const Accelerator& gpu, PrecisionRecipe precision, const TrainingAssumptions& a) {
  if (a.flops_efficiency_given) return a.flops_efficiency;
  const double base = gpu.training_matmul_share > 0 ? gpu.training_matmul_share : a.flops_efficiency;
  if (precision != PrecisionRecipe::fp8 || gpu.mamf_share_bf16 <= 0 || gpu.mamf_share_fp8 <= 0) return base;
  return base * gpu.mamf_share_fp8 / gpu.mamf_share_bf16;
}

std::string training_time_missing_rate(const Accelerator& gpu, ComputeDtype precision) {
  const bool has_precision = peak_flops_per_second(gpu, precision) > 0;
  if (has_precision && sixteen_bit_rate(gpu) > 0) return {};
  std::string published;
  for (const PrecisionRecipe recipe : kTrainableRecipes) {
    const ComputeDtype dtype = training_compute_dtype(recipe);
    const double rate = peak_flops_per_second(gpu, dtype);
    if (rate <= 0) continue;
    published += std::string(published.empty() ? "" : ", ") + compute_dtype_name(dtype) + " " + tera_flops(rate) +
                 " (precision " + precision_recipe_info(recipe).id + ")";
  }
  const std::string missing = has_precision ? std::string("bf16 or fp16 rate for the attention core")
                                            : std::string(compute_dtype_name(precision)) + " rate";
  return "option 'precision': the " + std::string(gpu.name) + " publishes no " + missing +
         ", so the step time is not computed (another dtype's rate would be a different chip's time); " +
         (published.empty() ? std::string("it publishes no rate fitcheck trains at") : "its dense rates: " + published);
}

TrainingTime estimate_training_time(const PreparedLatencyModel& model, const TrainingWorkload& w,
                                    const Accelerator& gpu, double train_tokens, const TrainingAssumptions& assume) {
  const ParallelLayout& lay = w.layout;
  check_training_workload(w, model.layers, true);
  check(assume.flops_efficiency > 0, "flops_efficiency", "the flops efficiency must be positive");
  check(assume.communication.interconnect_efficiency > 0, "interconnect_efficiency",
        "the interconnect efficiency must be positive");
  check(train_tokens >= 0, "train_tokens", "the tokens to train cannot be negative");
  const double s = static_cast<double>(w.sequence_tokens), b = static_cast<double>(w.micro_batch_size);
  const double tp = static_cast<double>(lay.tensor_parallel), pp = static_cast<double>(lay.pipeline_parallel);
  const double dp = static_cast<double>(lay.data_parallel);
  const double cp = static_cast<double>(w.context_parallel), v = static_cast<double>(w.virtual_pipeline_stages);
  const double a = detail::kActivationBytesPerElement, h = model.hidden;

  TrainingTime t;
  const double m = static_cast<double>(step_micro_batches(w));  // a partial micro-batch costs a whole one
  t.micro_batches = static_cast<std::int64_t>(m);
  t.gpus = lay.tensor_parallel * lay.pipeline_parallel * w.context_parallel * lay.data_parallel;
  const double gpus = static_cast<double>(t.gpus);
  const double sequences = m * b * dp;  // processed per step
  t.sequences_per_step = sequences;

  const ComputeDtype precision = training_compute_dtype(w.precision);
  if (const std::string missing = training_time_missing_rate(gpu, precision); !missing.empty())
    throw OptionError("precision", missing);
  const double sixteen = sixteen_bit_rate(gpu);
  t.peak_flops_per_second = peak_flops_per_second(gpu, precision);
  t.flops_efficiency = training_flops_efficiency(gpu, w.precision, assume);
  const double matmul_rate = t.peak_flops_per_second * t.flops_efficiency;
  // FP8 recipes convert the blocks' linear layers only; the output layer stays 16-bit (Transformer
  // Engine replaces the layers' Linear modules; torchtitan's float8 converter skips "output"), as
  // the memory's is_fp8_gemm_matrix counts it.
  // The 16-bit products' share (the output layer under FP8, eager attention's batched matmuls).
  const double sixteen_bit_efficiency = training_flops_efficiency(gpu, PrecisionRecipe::bf16_mixed, assume);
  const double head_rate = w.precision == PrecisionRecipe::fp8 ? sixteen * sixteen_bit_efficiency
                                                               : t.peak_flops_per_second * t.flops_efficiency;
  // The attention core stays 16-bit; flash kernels run at their published rates, eager attention's
  // batched matmuls at the weight products' efficiency.
  t.attention_efficiency = !w.flash_attention                ? sixteen_bit_efficiency
                           : assume.attention_efficiency > 0 ? assume.attention_efficiency
                                                             : attention_efficiency_default(gpu, w).share;
  const double attention_rate = sixteen * t.attention_efficiency;

  // Per micro-batch on one GPU of a stage: layers' share, lm_head on the last stage.
  t.forward_flops_per_sequence = training_forward_flops_per_sequence(model, s, w.causal_attention_flops);
  const TrainingFlops& f = t.forward_flops_per_sequence;
  const double layers = static_cast<double>(model.layers);
  // Share of the layers whose forward runs again in backward: every layer under full, one in
  // recompute_frequency under selective-layer, block's num_layers of each stage; selective-op
  // recomputes every other matmul (about half the products).
  const double layers_per_stage = static_cast<double>(model.layers) / pp;
  const double recompute_share =
      w.recompute == Recompute::full
          ? (w.recompute_method == RecomputeMethod::block
                 ? std::min(1.0, static_cast<double>(w.recompute_num_layers) / layers_per_stage)
                 : 1.0)
      : w.recompute == Recompute::selective_layer
          ? std::floor(layers_per_stage / static_cast<double>(w.recompute_frequency)) / layers_per_stage
      : w.recompute == Recompute::selective_op ? 0.5
                                               : 0.0;
  // Megatron's selective recomputes the attention core (its default module, core_attn); whole-layer modes
  // recompute it with the layer.
  const RecomputeModules& modules = w.recompute_modules;
  const bool selective = w.recompute == Recompute::selective;
  const double recompute_attention_share = selective                                ? (modules.core_attn ? 1.0 : 0.0)
                                           : w.recompute == Recompute::selective_op ? 0.0
                                                                                    : recompute_share;
  // The elementwise operations run again wherever the layer's forward does: every layer under full,
  // the checkpointed ones under selective-layer; selective-op recomputes every op it does not save
  // (it saves the matmul and attention outputs only); Megatron's selective the attention core only.
  const double recompute_elementwise_share = w.recompute == Recompute::selective_op ? 1.0
                                             : w.recompute == Recompute::selective  ? 0.0
                                                                                    : recompute_share;
  // Backward is twice the forward (input and weight gradients, Narayanan et al. 2021 §5.1); a
  // frozen base (LoRA) computes input gradients only, so its products cost one forward more
  // (NeMo AutoModel's LoRA TFLOP/s match 4N per token: docs/frameworks-training.md §8).
  const double matmul_passes = w.lora.rank > 0 ? 2 : 3;
  // FlashAttention's backward does 2.5 forwards of FLOPs (it recomputes the scores: five matmuls
  // against two), the count its published rates divide by (Dao-AILab/flash-attention 0251105a
  // benchmarks/benchmark_flash_attention.py flops(): bwd 2.5 f, fwd_bwd 3.5 f).
  constexpr double kAttentionBackwardPasses = 2.5;
  const double attention_passes = 1 + kAttentionBackwardPasses + recompute_attention_share;
  const double tokens_gpu = b * s / cp;  // tokens of a micro-batch on one context-parallel rank
  // The routed experts run as one grouped GEMM per rank: balanced routing gives each local expert
  // top-k x tokens x ep / experts tokens of the ep ranks' micro-batches (training_kernels.hpp,
  // grouped_expert_gemm_slowdown). Their time beyond the dense rate's, as forward products.
  const double ep_ranks = std::max(1.0, static_cast<double>(lay.expert_parallel));
  double expert_products = 0, expert_excess_products = 0;
  for (const LatencyLayerKind& k : model.kinds) {
    if (!k.moe || k.experts <= 0 || k.expert.matrix_params <= 0) continue;
    detail::ExpertGemmShape shape;
    shape.tokens_per_expert = tokens_gpu * k.experts_per_token * ep_ranks / k.experts;
    shape.hidden = h;
    shape.expert_width = k.expert_width;
    shape.gated = k.gated_mlp;
    shape.tensor_parallel = tp;
    // Outputs at the recipe's activation width; FP8 GEMMs read their inputs cast to one byte.
    shape.output_bytes = static_cast<double>(precision_recipe_info(w.precision).activation_bytes_per_element);
    shape.operand_bytes = w.precision == PrecisionRecipe::fp8 ? 1 : shape.output_bytes;
    const double slowdown =
        detail::grouped_expert_gemm_slowdown(shape, matmul_rate, gpu.memory_bandwidth_bytes_per_second);
    const double products = static_cast<double>(k.layers) * 2 * s * k.experts_per_token * k.expert.matrix_params;
    expert_products += products;
    expert_excess_products += products * (slowdown - 1);
  }
  t.expert_gemm_slowdown = expert_products > 0 ? 1 + expert_excess_products / expert_products : 1;
  // Megatron's selective modules beyond the attention core run their forward products again in backward.
  const detail::ModuleRecomputeProducts module_products =
      selective ? detail::module_recompute_products(model, modules, s, expert_excess_products)
                : detail::ModuleRecomputeProducts{};
  const ElementwiseKernels kernels = layer_kernels(w);
  t.elementwise_kernels = kernels;
  const Fp8Casts fp8_casts = training_framework(w).fp8_casts;
  const bool torch_ring = cp > 1 && training_framework(w).torch_ring_attention;
  const double hbm = gpu.memory_bandwidth_bytes_per_second * assume.elementwise_bandwidth_efficiency;
  const double ep = static_cast<double>(lay.expert_parallel);
  const bool eager_expert_bias = training_framework(w).eager_expert_bias;
  const double activation_bytes = static_cast<double>(precision_recipe_info(w.precision).activation_bytes_per_element);
  // The adapted roles, "all-linear" filled in where none were given (with_training_defaults).
  const std::vector<TensorRole> dora_roles =
      w.lora.dora ? with_training_defaults(w).lora.target_roles : std::vector<TensorRole>{};
  // Bytes through HBM of one micro-batch on a stage: elementwise ops forward, backward and
  // recomputed; the MoE layers' routed tokens (router, copies into expert order and back, eager
  // expert biases), run again where the layer's forward is; FP8 casts of activations, gradients and
  // weights; the loss on the last stage.
  struct StageBytes {
    double total = 0, moe_tokens = 0, dora = 0;
  };
  auto stage_memory_bytes = [&](double share, bool has_lm_head) {
    StageBytes out;
    double& bytes = out.total;
    for (const LatencyLayerKind& k : model.kinds) {
      const double n = static_cast<double>(k.layers) * share;
      const detail::LayerTraffic e =
          detail::layer_elementwise_traffic(k, model.hidden, model.rms_norm, model.rotary, kernels);
      bytes += n * tokens_gpu *
               (e.forward.per_rank(tp, w.sequence_parallel) * (1 + recompute_elementwise_share) +
                e.backward.per_rank(tp, w.sequence_parallel));
      detail::MoeTokenTrafficOptions options;
      options.sort_by_local_expert = w.moe_dispatcher == MoeDispatcher::all_to_all && k.experts / ep > 1;
      options.eager_expert_bias = eager_expert_bias && expert_has_biases(k);
      if (selective && modules.beyond_core_attention())
        bytes += n * tokens_gpu *
                 detail::megatron_module_recompute_traffic(k, model.hidden, model.rotary, modules, options)
                     .per_rank(tp, w.sequence_parallel);
      if (k.moe) {
        const detail::LayerTraffic r = detail::moe_token_traffic(k, model.hidden, options);
        const double moe = n * tokens_gpu *
                           (r.forward.per_rank(tp, w.sequence_parallel) * (1 + recompute_elementwise_share) +
                            r.backward.per_rank(tp, w.sequence_parallel));
        bytes += moe;
        out.moe_tokens += moe;
      }
      if (w.precision == PrecisionRecipe::fp8) {
        const detail::Fp8CastTraffic c = detail::layer_fp8_cast_traffic(k, model.hidden, fp8_casts, kernels);
        bytes += n * tokens_gpu *
                 (c.tokens.forward.per_rank(tp, w.sequence_parallel) * (1 + recompute_share) +
                  c.tokens.backward.per_rank(tp, w.sequence_parallel));
        bytes += n * c.weight_bytes_per_parameter * detail::active_matrix_params(k) / tp;
      }
      if (w.lora.dora) {
        // DoRA's weight norms run in every forward (recomputation's too); its products per token.
        const detail::DoraTraffic d =
            detail::dora_layer_traffic(k, model.hidden, tp, ep, dora_roles, activation_bytes,
                                       static_cast<double>(training_framework(w).adapter_bytes));
        const double dora =
            n *
            (d.weight_norm_bytes * (1 + recompute_elementwise_share) +
             tokens_gpu * (d.forward_bytes_per_token * (1 + recompute_elementwise_share) + d.backward_bytes_per_token));
        bytes += dora;
        out.dora += dora;
      }
      if (torch_ring && k.heads > 0) {
        // PyTorch's ring: keys and values reach SDPA repeated to every query head.
        const double qk = k.multi_latent ? k.nope_head_dim + k.rope_head_dim : k.qk_head_dim;
        const double query = k.heads * qk / tp, value = k.heads * k.v_head_dim / tp;
        const detail::RingAttentionTraffic r = detail::torch_ring_attention_traffic(cp, query, query, value, value);
        bytes += n * tokens_gpu * (r.forward * (1 + recompute_attention_share) + r.backward);
      }
    }
    if (has_lm_head) bytes += tokens_gpu * model.vocab / tp * detail::loss_traffic_bytes_per_logit(loss_kernels(w));
    return out;
  };
  struct StageTime {
    double matmul = 0, attention = 0, memory = 0, memory_bytes = 0, moe_token_bytes = 0, dora_bytes = 0;
    double total() const { return matmul + attention + memory; }
  };
  auto stage_compute = [&](double share, bool has_lm_head) {
    const double matmul = share * b * (f.layer_matmul + expert_excess_products) / (tp * cp) / matmul_rate;
    const double module_matmul = share * b * module_products.timed_flops / (tp * cp) / matmul_rate;
    const double attention = share * b * f.attention_core / (tp * cp) / attention_rate;
    const double head = has_lm_head ? b * f.lm_head / (tp * cp) / head_rate : 0;
    StageTime st;
    st.matmul = matmul_passes * (matmul + head) + recompute_share * matmul + module_matmul;
    st.attention = attention_passes * attention;
    const StageBytes memory = stage_memory_bytes(share, has_lm_head);
    st.memory_bytes = memory.total;
    st.moe_token_bytes = memory.moe_tokens;
    st.dora_bytes = memory.dora;
    st.memory = st.memory_bytes / hbm;
    return st;
  };
  // Layers of the first and last stages (the first takes the remainder). With the embedding's and the
  // loss's slots in the split (Megatron-Core), each of those stages runs a layer fewer and a middle
  // stage the most.
  double first_layers = pp > 1 ? std::ceil(layers / pp) : layers;
  double last_layers = pp > 1 ? std::floor(layers / pp) : layers;
  double middle_layers = 0;
  if (pp > 1 && (w.pipeline_split_embedding_slot || w.pipeline_split_loss_slot)) {
    const double slots_per_stage = static_cast<double>(w.pipeline_split_slots(model.layers)) / pp;
    first_layers = slots_per_stage - (w.pipeline_split_embedding_slot ? 1 : 0);
    last_layers = slots_per_stage - (w.pipeline_split_loss_slot ? 1 : 0);
    if (pp > 2) middle_layers = slots_per_stage;
  }
  const double share_first = first_layers / layers, share_last = last_layers / layers;
  const StageTime first = stage_compute(share_first, pp <= 1), last = stage_compute(share_last, true);
  const StageTime middle = middle_layers > 0 ? stage_compute(middle_layers / layers, false) : StageTime{};
  enum class Busiest { first_stage, middle_stage, last_stage };
  const Busiest busiest_stage = middle.total() > std::max(first.total(), last.total()) ? Busiest::middle_stage
                                : first.total() >= last.total()                        ? Busiest::first_stage
                                                                                       : Busiest::last_stage;
  const double share = busiest_stage == Busiest::first_stage    ? share_first
                       : busiest_stage == Busiest::middle_stage ? middle_layers / layers
                                                                : share_last;
  const StageTime& busiest = busiest_stage == Busiest::first_stage    ? first
                             : busiest_stage == Busiest::middle_stage ? middle
                                                                      : last;
  t.microbatch_compute_seconds = busiest.total();
  t.microbatch_matmul_seconds = busiest.matmul;
  t.microbatch_attention_seconds = busiest.attention;
  t.microbatch_memory_seconds = busiest.memory;
  t.microbatch_memory_bytes = busiest.memory_bytes;
  t.microbatch_moe_token_bytes = busiest.moe_token_bytes;
  t.microbatch_dora_bytes = busiest.dora_bytes;
  const double attention_seconds = busiest.attention;

  const LatencyAssumptions& c = assume.communication;
  const double passes = 2 + recompute_share;  // forward, backward, recomputed forward
  detail::StageCollectiveInput collective_input{share, b, s, tokens_gpu, passes, recompute_attention_share, torch_ring};
  // 'moe' runs the layer's dispatch and combine again, 'mlp' and 'moe' their layers' MLP reduction.
  collective_input.moe_recomputed = selective && modules.moe;
  collective_input.dense_mlp_recomputed = selective && modules.mlp;
  collective_input.partitioned_checkpoints = w.partition_checkpoints;
  const detail::LayerCollectiveSeconds collectives =
      detail::layer_collective_seconds(model, w, gpu, c, collective_input);
  const double tp_seconds = collectives.tensor_parallel, cp_seconds = collectives.context_parallel;
  const double ep_seconds = collectives.expert_parallel;
  // Megatron's tp_comm_overlap splits each layer's GEMMs into chunks that run while the
  // all-gather or reduce-scatter of the next chunk moves (TE userbuffers): only communication
  // longer than the layers' products shows (megatron/core/model_parallel_config.py tp_comm_overlap).
  t.tensor_parallel_seconds = tp_seconds;
  t.microbatch_tensor_parallel_seconds = w.tp_comm_overlap ? std::max(0.0, tp_seconds - busiest.matmul) : tp_seconds;
  // The exchange runs under the attention core it feeds; only the excess shows.
  t.microbatch_context_parallel_seconds = std::max(0.0, cp_seconds - attention_seconds);
  // Megatron's overlap_moe_expert_parallel_comm runs one micro-batch's all-to-alls under another's
  // computation ("Overlap EP A2A communications with independent computations of different
  // micro-batches", megatron/core/model_parallel_config.py): only what exceeds it shows.
  t.expert_parallel_seconds = ep_seconds;
  t.microbatch_expert_parallel_seconds =
      w.ep_comm_overlap ? std::max(0.0, ep_seconds - t.microbatch_compute_seconds) : ep_seconds;
  if (pp > 1) {
    // Activations to the next stage in forward, their gradients back in backward, split over the
    // tp ranks (scatter/gather, Narayanan et al. 2021 §4.1); v model chunks send v times as often.
    const detail::CollectiveLink pp_link =
        detail::collective_link(2, tp * cp * dp, gpu, c, detail::LinkTraffic::per_gpu);
    const double message = tokens_gpu * h * a / tp;
    t.microbatch_pipeline_send_seconds = 2 * v * (message / pp_link.bandwidth + pp_link.hop + pp_link.base);
    // Megatron's interleaved schedule posts each send and receive while the next chunk computes.
    if (v > 1 && training_framework(w).overlaps_interleaved_pipeline_sends)
      t.microbatch_pipeline_send_seconds = std::max(0.0, t.microbatch_pipeline_send_seconds - busiest.total());
  }
  t.microbatch_seconds = t.microbatch_compute_seconds + t.microbatch_tensor_parallel_seconds +
                         t.microbatch_context_parallel_seconds + t.microbatch_expert_parallel_seconds +
                         t.microbatch_pipeline_send_seconds;
  // 1F1B: (pp - 1) micro-batch slots of fill and drain; interleaving v chunks divides them by v
  // (Narayanan et al. 2021 §2.2.1-2.2.2).
  // Zero-bubble ZB-H1 (Qi et al. 2024 §3, with T_F = T_B = T_W): (p - 1) / 3 slots.
  const double bubble_slots = w.zero_bubble_schedule ? (pp - 1) / 3 : (pp - 1) / v;
  t.pipeline_seconds = t.microbatch_seconds * (m + bubble_slots);
  t.bubble_seconds = t.microbatch_seconds * bubble_slots;
  t.pipeline_bubble_fraction = bubble_slots / (m + bubble_slots);

  // Data parallelism over dp x cp ranks (context-parallel ranks hold the same weights); one
  // micro-batch's compute hides a per-step collective, every one's a per-micro-batch gather.
  // An even split's first and last stages share one share: both ends' tensors are counted (the larger).
  const bool end_stage = busiest_stage != Busiest::middle_stage;
  const bool on_first = end_stage && share == share_first, on_last = pp <= 1 || (end_stage && share == share_last);
  const detail::DataParallelCollectives data_parallel =
      detail::data_parallel_collectives(model, w, gpu, c, share, on_first, on_last, m);
  t.data_parallel_seconds = data_parallel.seconds;
  const double window =
      data_parallel.hidden_by_every_micro_batch ? m * t.microbatch_compute_seconds : t.microbatch_compute_seconds;
  t.data_parallel_exposed_seconds =
      w.overlap_data_parallel ? std::max(0.0, t.data_parallel_seconds - window) : t.data_parallel_seconds;
  t.step_seconds = t.pipeline_seconds + t.data_parallel_exposed_seconds;

  const double tokens = sequences * s;
  t.tokens_per_second = tokens / t.step_seconds;
  t.tokens_per_second_per_gpu = t.tokens_per_second / gpus;
  // Model FLOPs as the frameworks count them: 3 x forward (torchtitan get_num_flop_per_token,
  // Megatron num_floating_point_operations); LoRA's frozen base: forward and input gradient only.
  // The attention term as the framework's MFU counts it (the time above runs the causal pairs).
  const TrainingFlops counted = training_framework(w).mfu_attention_full_square && w.causal_attention_flops
                                    ? training_forward_flops_per_sequence(model, s, false)
                                    : f;
  t.mfu_attention_full_square = counted.attention_core != f.attention_core;
  t.model_flops_per_step =
      (matmul_passes * (counted.layer_matmul + counted.lm_head) + 3 * counted.attention_core) * sequences;
  t.hardware_flops_per_step =
      t.model_flops_per_step + sequences * (recompute_share * counted.layer_matmul + module_products.flops +
                                            recompute_attention_share * counted.attention_core);
  t.mfu = t.model_flops_per_step / (t.step_seconds * t.peak_flops_per_second * gpus);
  t.hfu = t.hardware_flops_per_step / (t.step_seconds * t.peak_flops_per_second * gpus);
  t.achieved_flops_per_second_per_gpu = t.hardware_flops_per_step / (t.step_seconds * gpus);
  t.train_tokens = train_tokens;
  t.train_seconds = train_tokens / tokens * t.step_seconds;
  t.train_days = t.train_seconds / 86400;
  t.train_gpu_hours = t.train_seconds * gpus / 3600;
  t.price_per_gpu_hour_usd = price_per_gpu_hour_usd(gpu, c.price_per_gpu_hour_usd);
  t.train_cost_usd = t.train_gpu_hours * t.price_per_gpu_hour_usd;
  return t;
}

}  // namespace fitcheck
