// SPDX-License-Identifier: MIT
// The training framework profiles, one per framework, each rule with the source it comes from.
// Commits: docs/frameworks-training.md (its table of commits).
#include "fitcheck/training_framework.hpp"

#include <cctype>
#include <string>

namespace fitcheck {
namespace {

// torchtitan's loss and pipeline run on PyTorch's distributed pieces; its stage split is its own.
constexpr TrainingFrameworkProfile with_torchtitan_rules(TrainingFrameworkProfile p) {
  // With tp > 1 the output layer leaves its logits sharded by vocabulary (ColwiseParallel
  // output_layouts Shard(-1), 9dec370 torchtitan/parallelisms/parallelize_llama.py l.138-142) and
  // train_context enters loss_parallel() (train.py l.225-228, parallel_dims.py l.119-120: on unless
  // --training.disable_loss_parallel). Its log-softmax keeps the fp32 input, its shifted copy and
  // their exponential at once (14 B with the bf16 logits); its backward holds the saved log-softmax,
  // a zero gradient with the -1 scattered in, exp(log-softmax) and their sum, then the product:
  // 4 x 4 B (torch/distributed/tensor/parallel/loss.py _log_softmax, _nll_loss_and_log_softmax_backward).
  p.loss_parallel_bytes_per_logit = 16;
  p.loss_parallel_rule =
      "loss_parallel (tp > 1): backward of the vocabulary-sharded cross-entropy holds the saved fp32 log-softmax, "
      "the scattered nll gradient, exp(log-softmax) and their sum, then their product (4 x 4 B): "
      "pytorch/pytorch 02eef6b8 torch/distributed/tensor/parallel/loss.py _nll_loss_and_log_softmax_backward; "
      "torchtitan 9dec370 train.py l.225-228";
  // forward_one_chunk appends the last stage's output to output_chunks; step() clears them only at
  // the start of the next step and merges them at its end (torch/distributed/pipelining stage.py,
  // schedules.py PipelineScheduleSingle.step; 9dec370 train.py l.285-291 calls step() and drops
  // the merged result).
  p.pipeline_keeps_outputs = true;
  p.pipeline_outputs_rule =
      "torch.distributed.pipelining keeps each micro-batch's output on the last stage (output_chunks) until the "
      "next step: pytorch/pytorch 0138610 torch/distributed/pipelining/stage.py forward_one_chunk, 00722e64 "
      "schedules.py PipelineScheduleSingle.step";
  // generate_split_points (9dec370 torchtitan/parallelisms/pipelining_utils.py l.18-57).
  p.middle_stages_take_extra_layers = true;
  // apply_tp gives "attention" and "feed_forward" a PrepareModuleInput (Float8: PrepareFloat8ModuleInput,
  // the cast before the gather) from Shard(1) to Replicate(); wq/wk/wv and w1/w3 are ColwiseParallel,
  // so F.linear saves the gathered input (9dec370 torchtitan/parallelisms/parallelize_llama.py apply_tp).
  p.sequence_parallel_saves_gathered_inputs = true;
  p.sequence_parallel_rule =
      "sequence parallelism through DTensor: the attention and MLP inputs are all-gathered to the whole sequence "
      "(PrepareModuleInput Shard(1) -> Replicate) before the column-parallel matmuls, which save that gathered "
      "tensor: torchtitan 9dec370 torchtitan/parallelisms/parallelize_llama.py apply_tp";
  return p;
}

constexpr TrainingFrameworkProfile kProfiles[] = {
    {TrainingFramework::megatron, "megatron", "Megatron-LM / Megatron-Core",
     // Forward: the bf16 [s, b, V/t] logits and their fp32 copy, exponentiated and normalized in
     // place and saved as the softmax; backward writes the gradient into that saved buffer and
     // hands a bf16 copy to the output layer: 2 + 4 B per logit element.
     6,
     "bf16 logits (2 B) + their fp32 copy, exponentiated in place and saved as the softmax, whose buffer becomes "
     "the gradient (4 B): NVIDIA/Megatron-LM d98e8a64 megatron/core/tensor_parallel/cross_entropy.py "
     "calculate_logits_max l.20-29, l.61-62, VocabParallelCrossEntropy.backward",
     // --bf16 sets main_grads_dtype fp32: accumulate_allreduce_grads_in_fp32 (one contiguous fp32
     // buffer of all local parameters), unless --grad-reduce-in-bf16.
     true,
     "bf16 runs accumulate and all-reduce gradients in one fp32 buffer (main_grad): Megatron-LM d98e8a64 "
     "megatron/training/arguments.py l.1208-1217",
     false,
     // attention_backend auto: Transformer Engine picks cuDNN fused / flash attention.
     AttentionKernel::cudnn,
     "Transformer Engine fused attention (attention_backend auto, transformer_config.py l.151): "
     "cuDNN fused attention",
     false,
     "num_floating_point_operations: 3 x 2 x (weight products + logits) + causal attention halved "
     "(megatron/training/training.py, since 8873b55d6a, 2025-03)",
     MemoryStatistic::allocated,
     "report_memory prints allocated, max allocated, reserved and max reserved (common_utils.py l.313-325); "
     "the theoretical estimate is allocated",
     0, 0, false, "", 4, "PEFT's autocast_adapter_dtype keeps adapters in fp32", 0, 0, 0, "", ElementwiseKernels::fused,
     "Transformer Engine and Megatron fusions: RMSNorm/LayerNorm inside LayerNormLinear, fused rotary embedding "
     "(apply_rotary_pos_emb with apply_rope_fusion), fused bias-SwiGLU/GeLU and bias-dropout-add, GQA without "
     "copies in cuDNN attention, fused cross-entropy (--cross-entropy-loss-fusion): Megatron-LM d98e8a64 "
     "megatron/core/transformer/transformer_config.py (bias_activation_fusion, apply_rope_fusion, "
     "bias_dropout_fusion)",
     false, Fp8Casts::transformer_engine,
     "Transformer Engine DelayedScaling: the norm and activation kernels write FP8 directly (amax taken in the same "
     "kernel); the attention output and the gradients are cast by cast-transpose kernels (read 2 B, write the "
     "row- and column-wise FP8 copies)",
     // --no-overlap-p2p-communication stores false into overlap_p2p_comm (default true), which
     // the interleaved schedule keeps (arguments.py l.1000-1017, l.3118-3120).
     true, false, false, false,
     // TEGroupedMLP._apply_packed_bias (megatron/core/transformer/moe/experts.py): fc2's bias,
     // scaled by each copy's probability, added in fp32 by eager ops.
     true},
    {TrainingFramework::deepspeed, "deepspeed", "Megatron-DeepSpeed (DeepSpeed ZeRO)",
     // Megatron-DeepSpeed computes its loss with Megatron's vocab_parallel_cross_entropy.
     6,
     "Megatron's vocab-parallel cross-entropy (Megatron-DeepSpeed keeps megatron/core/tensor_parallel/"
     "cross_entropy.py): bf16 logits (2 B) + one fp32 softmax reused as the gradient (4 B)",
     // With ZeRO enabled and bf16, gradients accumulate in the model dtype unless
     // data_types.grad_accum_dtype is set.
     false,
     "with ZeRO, bf16 gradients accumulate in bf16 unless data_types.grad_accum_dtype is set: "
     "microsoft/DeepSpeed 38327e07 deepspeed/runtime/engine.py get_data_types l.1010-1025",
     false, AttentionKernel::flash_attn, "FlashAttention-2 (Megatron-DeepSpeed --use-flash-attn-v2)", true,
     "Narayanan et al. 2021 Eq. 3 as Megatron-DeepSpeed prints it: the full s x s attention square",
     MemoryStatistic::allocated,
     "see_memory_usage prints MA / Max_MA (allocated) and CA / Max_CA (reserved): deepspeed/runtime/utils.py "
     "l.771-785",
     0, 0, false, "", 4, "PEFT's autocast_adapter_dtype keeps adapters in fp32", 0, 0, 0, "", ElementwiseKernels::fused,
     "Megatron-DeepSpeed keeps Megatron's fused kernels (Apex fused layer norm, fused bias-GeLU, bias-dropout-add)",
     false, Fp8Casts::transformer_engine, "Transformer Engine FP8 (Megatron-DeepSpeed's --fp8 path)"},
    with_torchtitan_rules(TrainingFrameworkProfile{
        TrainingFramework::torchtitan, "torchtitan", "torchtitan (PyTorch FSDP2)",
        // loss_fn upcasts the [b, s, V] logits: cross_entropy(pred.flatten(0, 1).float(), labels), then
        // `del pred` before backward. Backward of log_softmax holds its saved output, the nll gradient
        // and its own gradient, all fp32: 12 B (the forward's bf16 + fp32 + log-softmax is 10 B).
        12,
        "fp32 upcast of the logits into cross_entropy; at the start of backward the saved fp32 log-softmax, the "
        "nll_loss gradient and the log_softmax gradient (3 x 4 B; the bf16 logits are deleted before backward): "
        "pytorch/torchtitan 9dec370 train.py loss_fn l.131-134",
        false,
        "FSDP2 MixedPrecisionPolicy: bf16 parameters gathered, gradients reduce-scattered in fp32 into fp32 shards "
        "(torchtitan/config/configs.py l.94-105)",
        // apply_fsdp: reshard_after_forward = not pp_enabled (9dec370 parallelize_llama.py l.325-339;
        // HEAD distributed/fsdp.py get_fsdp_reshard_after_forward_policy l.112-136).
        true, AttentionKernel::sdpa_flash,
        "F.scaled_dot_product_attention, flash backend (9dec370 torchtitan/models/llama/model.py Attention.forward)",
        true,
        "get_num_flop_per_token: 6 x non-embedding parameters + 12 x layers x heads x head_dim x s, no causal "
        "discount (9dec370 torchtitan/utils.py l.268-283)",
        MemoryStatistic::reserved,
        "DeviceMemoryMonitor prints torch.cuda.memory_stats()['reserved_bytes.all.peak']: torchtitan "
        "components/metrics.py get_peak_stats l.61-70",
        0, 0, false, "", 4, "PEFT's autocast_adapter_dtype keeps adapters in fp32", 0,
        // Since bbb1b616e (2025-04-02) training.compile also compiles the loss (components/loss.py
        // build_cross_entropy_loss; later compile.components "loss"). TorchInductor fuses the upcast,
        // log-softmax and nll: its backward graph keeps the bf16 logits and recomputes the softmax from
        // them, and writes the bf16 gradient; no fp32 [tokens, V] tensor is materialized.
        4, 0,
        "compiled loss (training.compile, torchtitan bbb1b616e and later: components/loss.py "
        "build_cross_entropy_loss): the bf16 logits kept for the fused backward (2 B) and their bf16 gradient (2 B); "
        "--eager-loss for earlier commits",
        ElementwiseKernels::eager,
        "eager PyTorch ops of torchtitan's Llama: RMSNorm as x.float(), pow, mean, rsqrt, mul, type_as, mul weight "
        "(9dec370 torchtitan/models/norms.py RMSNorm), rotary embedding through complex float32 tensors "
        "(models/llama/model.py apply_rotary_emb), repeat_kv copies, silu(w1 x) * w3 x; training.compile compiles each "
        "TransformerBlock (parallelize_llama.py apply_compile) and, from bbb1b616e (2025-04-02), the loss "
        "(components/loss.py build_cross_entropy_loss; 9dec370 kept it eager, train.py l.137-138)",
        true, Fp8Casts::torchao_tensorwise,
        "torchao Float8Linear, dynamic tensorwise scaling (the only scaling 9dec370 torchtitan/float8.py enables by "
        "default): per operand an amax pass and a cast writing the row- and column-major FP8 copies, as torchao's own "
        "roofline counts them (pytorch/ao 36027d82 torchao/testing/training/roofline_utils.py "
        "get_tensor_memory_traffic_ovhd_s); every nn.Linear but the output layer",
        false,
        // generate_split_points gives the middle stages the layers that do not divide evenly
        // (9dec370 torchtitan/parallelisms/pipelining_utils.py l.18-57).
        true,
        // create_context_parallel_ctx wraps torch.distributed.tensor.experimental.context_parallel
        // (9dec370 torchtitan/utils.py l.171-193).
        true}),
    {TrainingFramework::hf, "hf", "Hugging Face Trainer / Accelerate + PEFT",
     // Measured: torch CrossEntropyLoss forward + backward on fp32 logits with their gradient holds
     // 20 B per logit element (linkedin/Liger-Kernel 2120862b benchmark/data/all_benchmark_data.csv);
     // HF's loss works on fp32 logits (transformers 0114da07 loss/loss_utils.py ForCausalLMLoss).
     20,
     "fp32 logits (ForCausalLMLoss upcasts; 4.45-era models return .float() logits and a contiguous shifted "
     "copy), their gradient, the saved log-softmax and cross_entropy's temporaries: 20 B per element as "
     "measured for torch CrossEntropyLoss on fp32 logits (Liger-Kernel 2120862b all_benchmark_data.csv)",
     false, "gradients in the parameters' dtype (torch.optim, no separate buffer)", false, AttentionKernel::sdpa_flash,
     "attn_implementation None resolves to sdpa (PyTorch's flash backend); flash_attention_2 only when requested", true,
     "the Trainer prints no MFU; fitcheck counts as PaLM (Chowdhery et al. 2022, App. B) and llm-foundry do: "
     "6N + 12 x layers x hidden x s, no causal discount",
     MemoryStatistic::allocated,
     "the Trainer's TrainerMemoryTracker and most scripts report torch.cuda.max_memory_allocated", 0, 0, false, "", 4,
     "PEFT's autocast_adapter_dtype keeps adapters in fp32", 0, 0, 0, "", ElementwiseKernels::eager,
     "eager PyTorch ops of the transformers model code: LlamaRMSNorm as to(float32), pow, mean, rsqrt, mul, to(dtype), "
     "mul weight; rotate_half rotary embedding; repeat_kv before SDPA; act_fn(gate) * up (transformers "
     "models/llama/modeling_llama.py); --compile: torch.compile of the model, whose forward computes the loss "
     "(ForCausalLMLoss) when given labels",
     true, Fp8Casts::torchao_tensorwise, "torchao Float8Linear, dynamic tensorwise scaling"},
    {TrainingFramework::torchtune, "torchtune", "torchtune recipes",
     // CEWithChunkedOutputLoss (every recipe config's loss): the model returns its bf16 logits in 8
     // chunks, all alive until the loss returns; cross_entropy(chunk.float()) saves each chunk's
     // fp32 log-softmax for backward (2 + 4 B); the fp32 upcast of the chunk being computed adds
     // 4 B over an eighth of the tokens. The recipe deletes the bf16 chunks before backward.
     6,
     "CEWithChunkedOutputLoss: bf16 logits in 8 chunks (2 B) + each chunk's saved fp32 log-softmax (4 B), and the "
     "fp32 upcast of the chunk being computed: pytorch/torchtune 1814feb1 torchtune/modules/loss/"
     "ce_chunked_output_loss.py compute_cross_entropy, recipes/full_finetune_single_device.py _loss_step (del logits)",
     false, "gradients in the model dtype (bf16 everywhere, no fp32 master copy: recipe dtype bf16)", false,
     AttentionKernel::sdpa_flash, "F.scaled_dot_product_attention (torchtune MultiHeadAttention)", true,
     "torchtune logs no MFU; fitcheck counts as PaLM does: 6N + 12 x layers x hidden x s, no causal discount",
     MemoryStatistic::allocated,
     "training.get_memory_stats logs peak_memory_active (active_bytes.all.peak), peak_memory_alloc "
     "(max_memory_allocated) and peak_memory_reserved; active and allocated count the same live blocks "
     "(torchtune 1814feb1 torchtune/training/memory.py l.245-280)",
     8, 4, true,
     "the recipe calls optimizer.zero_grad(set_to_none=True) after each step, so gradients are allocated again "
     "during backward while activations are freed (torchtune 1814feb1 recipes/full_finetune_single_device.py "
     "train)",
     2,
     "adapters are created under training.set_default_dtype(bf16): bf16 adapters, gradients and AdamW states "
     "(torchtune 1814feb1 recipes/lora_finetune_single_device.py _setup_model)",
     0,
     // compile: True compiles compute_cross_entropy alone (upcast + cross-entropy of one chunk):
     // the fused kernel never materializes the fp32 chunk and its backward graph keeps the bf16
     // chunk (kept alive past `del logits`), recomputing the softmax from it; one chunk's bf16
     // gradient is alive at a time.
     2, 2,
     "compiled CEWithChunkedOutputLoss: training.compile_loss compiles compute_cross_entropy only (torchtune "
     "1814feb1 torchtune/training/_compile.py l.58-82); the fused upcast and cross-entropy keep each bf16 chunk "
     "(2 B) for backward, and one chunk's bf16 gradient is alive at a time",
     ElementwiseKernels::eager,
     "eager PyTorch ops of torchtune's modules (RMSNorm in float32, RotaryPositionalEmbeddings, "
     "silu(w1 x) * w3 x); compile: True compiles each TransformerSelfAttentionLayer and the loss "
     "(torchtune 1814feb1 torchtune/training/_compile.py compile_model, compile_loss)",
     true, Fp8Casts::torchao_tensorwise, "torchao Float8Linear, dynamic tensorwise scaling"},
    {TrainingFramework::litgpt, "litgpt", "LitGPT (Lightning Fabric)",
     // finetune/full.py: the bf16 logits stay referenced through backward; chunked_cross_entropy
     // runs cross_entropy on bf16 chunks of 128 tokens and saves bf16 log-softmax; in backward
     // split's gradient concatenates the chunk gradients into one bf16 tensor: logits (2 B) + the
     // chunk gradients (2 B) + their concatenation (2 B).
     6,
     "bf16 logits kept by the training loop (2 B) + chunked_cross_entropy's chunk gradients (2 B, bf16, 128-token "
     "chunks) + split's backward concatenating them (2 B); finetune/lora.py computes the lm_head in 128-token "
     "chunks, so its chunk gradients reach the lm_head chunk by chunk (4 B): Lightning-AI/litgpt 00af8b0d "
     "litgpt/utils.py chunked_cross_entropy l.293-340, litgpt/finetune/full.py l.254-258, finetune/lora.py "
     "l.304-307",
     false, "precision bf16-true: weights, gradients and AdamW states in bf16 (no fp32 master copy)", false,
     AttentionKernel::sdpa_flash, "F.scaled_dot_product_attention (LitGPT CausalSelfAttention)", true,
     "LitGPT's measure_flops counts the model's forward and backward; fitcheck counts as PaLM does: 6N + 12 x "
     "layers x hidden x s, no causal discount",
     MemoryStatistic::allocated,
     "finetune scripts print torch.cuda.max_memory_allocated() / 1e9 as 'Memory used: X GB' (litgpt 00af8b0d "
     "litgpt/finetune/full.py l.173)",
     0, 0, true,
     "the loop calls optimizer.zero_grad() (set_to_none=True by default since torch 2.0), so with one micro-batch "
     "per step gradients are allocated during backward while activations are freed (litgpt 00af8b0d "
     "litgpt/finetune/full.py l.262-265)",
     2,
     "bf16-true creates the adapters in bf16 (fabric.init_module); their gradients and AdamW states are bf16 too "
     "(litgpt 00af8b0d litgpt/lora.py l.125-126)",
     4, 0, 0, "", ElementwiseKernels::eager,
     "eager PyTorch ops of LitGPT's model (RMSNorm in float32, apply_rope, LLaMAMLP silu(fc_1) * fc_2)", false,
     Fp8Casts::torchao_tensorwise, "torchao Float8Linear, dynamic tensorwise scaling", false, false, false, false,
     false,  // no biased routed experts of its own
     // GPT builds lm_head as its own Linear next to wte; the checkpoint converter copies the
     // embedding into lm_head.weight for tied models, and the finetune scripts refuse
     // tie_embeddings.
     true,
     "LitGPT's GPT holds lm_head apart from the token embedding and the checkpoint converter fills it with a copy "
     "of the embedding for tied models (Lightning-AI/litgpt 00af8b0d litgpt/model.py GPT.__init__ l.25, "
     "litgpt/scripts/convert_hf_checkpoint.py l.206-207; finetune/full.py validate_args refuses tie_embeddings)",
     // quantize: bnb.nf4 becomes BitsandbytesPrecision('nf4', bf16). Its init context replaces
     // torch.nn.Linear by _NF4Linear, so every Linear (lm_head included, a LoRALinear wrapping
     // torch.nn.Linear) is quantized, with compress_statistics=False, from a float16 copy: the
     // quant state's dtype is float16. MatMul4Bit dequantizes to that float16 and casts to the
     // bf16 input (two copies of the matrix alive), and keeps its input A for backward whenever
     // the input needs a gradient, although the frozen weight never gets one.
     true, false, true, 4,
     "QLoRA (--quantize bnb.nf4): Lightning Fabric's BitsandbytesPrecision replaces torch.nn.Linear by _NF4Linear "
     "while the model is built, so every Linear is NF4, the output head included; nf4 without double "
     "quantization (compress_statistics=False), quantized from a float16 copy (Lightning-AI/pytorch-lightning "
     "2.4.0 src/lightning/fabric/plugins/precision/bitsandbytes.py module_init_context l.129-140, "
     "_Linear4bit.quantize l.334, _NF4Linear l.391-393; litgpt 00af8b0d litgpt/finetune/lora.py l.138). "
     "bitsandbytes 0.42.0 (the version litgpt pins) MatMul4Bit.forward dequantizes to the quant state's float16 "
     "and casts to bf16 (both copies alive: 4 B per parameter of the largest matrix, the lm_head) and keeps its "
     "input for backward whenever it needs a gradient (bitsandbytes/autograd/_functions.py l.516, l.522-523; "
     "functional.py dequantize_4bit l.1026)",
     // litgpt/model.py RMSNorm.forward: x = x.float(); mean(x * x); x * rsqrt(...);
     // (x_normed * weight.float()).to(dtype). CausalSelfAttention.forward: k.expand / v.expand to
     // the query heads, then reshape (a copy) before scaled_dot_product_attention. LLaMAMLP and
     // GemmaMLP: act(fc_1(x)) * fc_2(x) as two ops, so the product keeps act(fc_1(x)).
     // scaled_dot_product_attention returns y.transpose(1, 2) and forward reshapes it (a copy)
     // for proj. LoRAQKVLinear.forward: F.linear(self.lora_dropout(x), self.lora_A) with one
     // lora_A of r x (enabled q/k/v) rows.
     true, true, true, true, true,
     "LitGPT's model code (Lightning-AI/litgpt 00af8b0d litgpt/model.py): RMSNorm.forward l.564-570 upcasts its "
     "input and keeps it in fp32 (and the fp32 normalized output when the norm weight trains); "
     "CausalSelfAttention.forward l.256-262 expands grouped k and v to every query head and reshapes them (a copy) "
     "before SDPA, which keeps the copies; scaled_dot_product_attention returns y.transpose(1, 2) and l.293 "
     "reshapes it for proj (a copy: where proj keeps its input, SDPA's output is kept as well); "
     "LLaMAMLP/GemmaMLP.forward l.370-382 multiply act(fc_1) by fc_2 as separate ops, so act(fc_1) is kept too; "
     "litgpt/lora.py LoRAQKVLinear l.233, l.426: one lora_A for the adapted q/k/v reads one dropped copy of the "
     "input"},
    {TrainingFramework::automodel, "automodel", "NVIDIA NeMo AutoModel (PyTorch FSDP2)",
     // MaskedCrossEntropy (fp32_upcast=True by default) runs F.cross_entropy on logits.float(); the
     // recipe keeps the model output, and with it the bf16 logits, until backward returns.
     14,
     "bf16 logits kept by the recipe's model output through backward (2 B) + at the start of backward the saved "
     "fp32 log-softmax, the nll gradient and the log-softmax gradient of F.cross_entropy on logits.float() "
     "(3 x 4 B): NVIDIA-NeMo/Automodel cb976544 nemo_automodel/components/loss/masked_ce.py (fp32_upcast=True), "
     "recipes/llm/train_ft.py _forward_backward_step",
     false,
     "FSDP2 MixedPrecisionPolicy(param_dtype=bf16, reduce_dtype=float32): gradients reduce-scattered in fp32 into "
     "the fp32 shards (cb976544 nemo_automodel/components/distributed/config.py l.201-205)",
     // With PP every layer is fully_shard-ed with reshard_after_forward=False (parallelizer.py l.958-962).
     true, AttentionKernel::sdpa_flash,
     "Hugging Face models with attn_implementation sdpa (PyTorch's flash backend); AutoModel's own MoE models "
     "default to BackendConfig attn 'te' (Transformer Engine, cuDNN: --attention-kernel cudnn)",
     false,
     "AutoModel's flops_utils formulas halve the attention term for causal masks (causal_self_attn = True: cb976544 "
     "nemo_automodel/components/utils/flops_utils.py l.44-46)",
     MemoryStatistic::allocated,
     "the training and benchmark recipes log torch.cuda.max_memory_allocated (cb976544 recipes/llm/train_ft.py "
     "l.1385, recipes/llm/benchmark.py l.335)",
     0, 0, false, "", 2,
     "LoRA adapters take the base linear's dtype unless lora_dtype is set: bf16 adapters, gradients and AdamW "
     "states for a bf16 model (cb976544 nemo_automodel/components/_peft/lora.py l.200-213)",
     0, 0, 0, "", ElementwiseKernels::fused,
     "fused kernels: Hugging Face models get Liger's RMSNorm, rotary and SwiGLU kernels (from_pretrained "
     "use_liger_kernel=True, applied to non-custom models: cb976544 nemo_automodel/_transformers/auto_model.py "
     "l.534, l.598; liger-kernel is in the container's dependency groups, docker/Dockerfile uv sync --all-groups); "
     "AutoModel's own models run Transformer Engine's RMSNorm and fused rotary embedding as the benchmark recipes set "
     "them (BackendConfig rms_norm 'te', rope_fusion; the default rms_norm 'torch_fp32' would run eager) and a fused "
     "expert SwiGLU; residual adds eager; the loss (MaskedCrossEntropy) eager",
     false, Fp8Casts::torchao_tensorwise, "torchao Float8Linear (nemo_automodel/components/quantization/fp8.py)", false,
     // calculate_virtual_stages rounds the stage count to a multiple of pp and generate_hf_model_split
     // gives the first stages one layer more (cb976544 components/distributed/pipelining/functional.py
     // l.137-149, l.189-214).
     true,
     // cp_utils.py creates torch.distributed.tensor.experimental.context_parallel (l.86).
     true,
     // MaskedCrossEntropy: F.cross_entropy on logits.float(), outside any fused kernel.
     true},
};

std::string lowered(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

const TrainingFrameworkProfile& training_framework_profile(TrainingFramework framework) {
  for (const auto& profile : kProfiles)
    if (profile.framework == framework) return profile;
  return kProfiles[3];  // hf
}

std::optional<TrainingFramework> find_training_framework(std::string_view id) {
  const std::string key = lowered(id);
  for (const auto& profile : kProfiles)
    if (key == profile.id) return profile.framework;
  if (key == "huggingface" || key == "transformers") return TrainingFramework::hf;
  if (key == "megatron-lm" || key == "megatron-core" || key == "nemo") return TrainingFramework::megatron;
  if (key == "lit-gpt") return TrainingFramework::litgpt;
  if (key == "nemo-automodel" || key == "nemo_automodel") return TrainingFramework::automodel;
  return std::nullopt;
}

const char* framework_dora_rule(TrainingFramework framework) {
  switch (framework) {
    case TrainingFramework::hf:
      return "PEFT's DoraLinearLayer.forward returns (m / ||W + s BA|| - 1) * base_result + m / ||W + s BA|| * "
             "lora_result * s with the norm detached, so autograd keeps base_result (the base layer's output) and "
             "lora_result (the adapter's, in the adapters' dtype) for the magnitude's gradient; the weight norm is "
             "rebuilt from W and B(A(eye)) every forward (huggingface/peft 5d602fdb src/peft/tuners/lora/dora.py "
             "l.97, l.142-165)";
    case TrainingFramework::torchtune:
      return "torchtune's DoRALinear.forward returns (m / ||W + s BA|| - 1) * base_out + m / ||W + s BA|| * lora_out * "
             "s + base_out with the norm detached, so autograd keeps base_out and lora_out (bf16) for the magnitude's "
             "gradient; the weight norm is rebuilt from W and lora_b(lora_a(eye)) every forward (pytorch/torchtune "
             "bd2a0fc7 torchtune/modules/peft/dora.py l.175-192)";
    default:
      return nullptr;
  }
}

const char* memory_statistic_name(MemoryStatistic statistic) {
  return statistic == MemoryStatistic::reserved ? "reserved" : "allocated";
}

const char* elementwise_kernels_name(ElementwiseKernels kernels) {
  switch (kernels) {
    case ElementwiseKernels::compiled:
      return "compiled";
    case ElementwiseKernels::fused:
      return "fused";
    case ElementwiseKernels::eager:
      break;
  }
  return "eager";
}

const char* attention_kernel_name(AttentionKernel kernel) {
  switch (kernel) {
    case AttentionKernel::flash_attn:
      return "flash-attn";
    case AttentionKernel::cudnn:
      return "cudnn";
    case AttentionKernel::sdpa_flash:
      break;
  }
  return "sdpa";
}

std::optional<AttentionKernel> find_attention_kernel(std::string_view id) {
  const std::string key = lowered(id);
  if (key == "sdpa") return AttentionKernel::sdpa_flash;
  if (key == "flash-attn" || key == "flash_attn" || key == "flash_attention_2") return AttentionKernel::flash_attn;
  if (key == "cudnn" || key == "te") return AttentionKernel::cudnn;
  return std::nullopt;
}

std::optional<MemoryStatistic> find_memory_statistic(std::string_view id) {
  const std::string key = lowered(id);
  if (key == "allocated") return MemoryStatistic::allocated;
  if (key == "reserved") return MemoryStatistic::reserved;
  return std::nullopt;
}

}  // namespace fitcheck
