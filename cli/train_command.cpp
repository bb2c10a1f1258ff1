// SPDX-License-Identifier: MIT
// `fitcheck train`. Flags map one to one onto the training option keys (dashes become
// underscores), so the CLI and the page accept, default and refuse the same inputs.
#include "train_command.hpp"

#include <cstdio>
#include <stdexcept>

#include "args.hpp"
#include "fitcheck/config.hpp"
#include "fitcheck/options.hpp"
#include "fitcheck/params.hpp"
#include "fitcheck/report.hpp"
#include "fitcheck/training_estimate.hpp"
#include "format.hpp"
#include "read_input.hpp"

namespace fitcheck::cli {
namespace {

constexpr const char* kHelp =
    "usage: fitcheck train CONFIG.json [options] [--json]     (CONFIG may be - for stdin)\n"
    "\n"
    "framework:\n"
    "  --framework F           hf (default: Hugging Face Trainer/Accelerate + PEFT) | megatron |\n"
    "                          deepspeed (Megatron-DeepSpeed) | torchtitan | torchtune | litgpt |\n"
    "                          automodel (NVIDIA NeMo AutoModel): loss\n"
    "                          buffers, gradient buffer and lifetime, FSDP under pp, attention kernel,\n"
    "                          adapter dtype, printed memory statistic\n"
    "  --memory-statistic S    allocated | reserved (default: what the framework prints)\n"
    "hardware and parallelism:\n"
    "  --gpu NAME              GPU from 'fitcheck gpus' (or custom, below); adds the largest\n"
    "                          micro-batch that fits and the step time\n"
    "  --gpus N                total GPUs; dp = N / (tp x pp x cp)\n"
    "  --tp N --pp N --dp N --ep N --cp N\n"
    "  --sequence-parallel     split norms, dropout and replicated activations by tp\n"
    "  --tp-comm-overlap       tp all-gathers and reduce-scatters under the GEMMs (Megatron\n"
    "                          tp_comm_overlap, TE userbuffers; needs --sequence-parallel)\n"
    "  --ep-comm-overlap       expert all-to-alls under another micro-batch's compute (Megatron\n"
    "                          overlap_moe_expert_parallel_comm)\n"
    "  --moe-dispatcher D      alltoall (default: a copy per expert) | deepep (DeepEP, HybridEP,\n"
    "                          Megatron's flex dispatcher: a copy per rank, one RDMA copy per node)\n"
    "  --moe-routing R         random (default) | round-robin (NeMo AutoModel's fake balanced gate:\n"
    "                          token t to experts t*k ... t*k+k-1)\n"
    "  --virtual-stages N      interleaved 1F1B model chunks per GPU (default 1)\n"
    "  --account-for-embedding-in-pipeline-split, --account-for-loss-in-pipeline-split\n"
    "                          the embedding (the output layer and loss) takes one layer's slot of the\n"
    "                          pipeline split: the first (last) stage runs one layer fewer (Megatron-Core)\n"
    "  --pipeline-schedule S   1f1b (default) | interleaved (with --virtual-stages) | zero-bubble\n"
    "                          (ZB-H1: a third of 1F1B's bubble at its activation memory)\n"
    "  --micro-batches N       micro-batches per step (default 0: at least pp)\n"
    "sharding:\n"
    "  --zero 0..3             DeepSpeed ZeRO stage (default 0)\n"
    "  --fsdp MODE             no_shard | shard_grad_op | full_shard | hybrid_shard\n"
    "  --fsdp-shard-group N    HYBRID_SHARD group size (default 8)\n"
    "  --offload-optimizer     ZeRO-Offload: master weights and optimizer states on the CPU\n"
    "  --offload-params        parameters on the CPU (ZeRO-3 or FSDP)\n"
    "  --reduce-bucket N --allgather-bucket N   DeepSpeed bucket sizes in elements (default 5e8)\n"
    "precision and optimizer:\n"
    "  --precision P           bf16-mixed (default) | fp16-mixed | fp32 | fp8\n"
    "  --master-weights M      fp32 (default) | none\n"
    "  --fp32-gradients        keep gradients in fp32 (default with --framework megatron;\n"
    "                          --fp32-gradients=false turns it off)\n"
    "  --optimizer O           adamw (default) | adam8bit | adafactor | sgd | sgd-momentum | lion | muon\n"
    "  --adafactor-first-moment\n"
    "  --paged-optimizer       bitsandbytes paged states (PagedAdamW8bit): CUDA managed memory,\n"
    "                          outside PyTorch's allocator, paged to the CPU under pressure\n"
    "activations:\n"
    "  --micro-batch N         sequences per micro-batch (default 1)\n"
    "  --seq-len N             tokens per sequence (default 4096)\n"
    "  --recompute R           none (default) | selective (Megatron core_attn) | full (whole layers)\n"
    "                          | selective-op | selective-layer (torchtitan) | gradient-checkpointing (hf)\n"
    "                          | activation-checkpointing (torchtune, LitGPT: whole layers)\n"
    "  --recompute-method M    uniform (default) | block, with --recompute full (Megatron-LM)\n"
    "  --recompute-num-layers N  layers per uniform group, or block layers per stage (default 1)\n"
    "  --recompute-frequency N selective-layer: every N-th layer (default 2)\n"
    "  --partition-activations (deepspeed) / --distribute-saved-activations (megatron), with\n"
    "                          --recompute full: each checkpointed layer input split over tp\n"
    "  --cpu-offloading-num-layers N  Megatron's CPU offloading: the activations of N layers in\n"
    "                          CPU memory (--framework megatron, pp 1, --recompute none)\n"
    "  --recompute-modules M,... with --framework megatron --recompute selective: Megatron's\n"
    "                          --recompute-modules, any of core_attn (default) moe_act layernorm\n"
    "                          mla_up_proj mlp moe shared_experts\n"
    "  --eager-attention       keep heads x s x s softmax terms (default: flash attention)\n"
    "  --attention-kernel K    sdpa (PyTorch's flash backend) | flash-attn (Dao-AILab FlashAttention-2)\n"
    "                          | cudnn (Transformer Engine fused attention); default: the framework's\n"
    "  --dropout               attention and hidden dropout masks\n"
    "  --offload-activations   checkpointed layer inputs in CPU memory (torchtune\n"
    "                          enable_activation_offloading, DeepSpeed cpu_checkpointing;\n"
    "                          needs --recompute full)\n"
    "  --optimizer-in-backward step each parameter as its gradient is ready: one gradient alive\n"
    "                          (torchtune optimizer_in_bwd)\n"
    "  --compile               torch.compile as the framework applies it: fused elementwise kernels\n"
    "                          in the step time, the compiled loss where the framework has one\n"
    "                          (torchtune compile: True; torchtitan training.compile)\n"
    "  --eager-loss            with --compile, the loss stays eager (torchtitan before April 2025)\n"
    "LoRA:\n"
    "  --lora-rank N           train rank-N adapters on a frozen base\n"
    "  --lora-modules LIST     q,k,v,o,gate,up,down (default: all linear layers)\n"
    "  --qlora                 frozen base in NF4 with double quantization\n"
    "  --lora-dropout          adapters keep dropped input copies (PEFT lora_dropout > 0)\n"
    "  --dora                  DoRA (PEFT use_dora; hf and torchtune): a trained magnitude per output,\n"
    "                          base and adapter outputs kept for its gradient\n"
    "  --overhead-gib X        framework overhead (default 1)\n"
    "step time (with --gpu):\n"
    "  --global-batch-tokens N tokens per optimizer step (default: 4194304, at least one micro-batch\n"
    "                          per data-parallel rank and stage)\n"
    "  --train-tokens N        tokens to train on (default 1e12; 1e8 with --lora-rank)\n"
    "  --flops-efficiency F    share of peak FLOP/s the weight products reach (default 0.5)\n"
    "  --attention-efficiency F  share of the 16-bit peak the attention core reaches (default:\n"
    "                          FlashAttention's published rate for the GPU and framework)\n"
    "  --overlap true|false    data-parallel collectives overlap the backward pass (default true)\n"
    "  --network-gb-per-s X    bandwidth each GPU has to other nodes, one direction, GB/s (default 50:\n"
    "                          one 400 Gb/s NIC per GPU; 12.5 for 100 Gb/s Ethernet)\n"
    "  --price-per-gpu-hour X  USD (default: the GPU's catalog price)\n"
    "  --json                  one JSON object\n";

std::string line(const char* format, const std::string& a, const std::string& b = "", const std::string& c = "") {
  char buffer[512];
  // Escaped before snprintf sees them (cli/format.hpp), so a NUL inside shows as \x00.
  const std::string sa = terminal_safe(a), sb = terminal_safe(b), sc = terminal_safe(c);
  std::snprintf(buffer, sizeof buffer, format, sa.c_str(), sb.c_str(), sc.c_str());
  return buffer;
}

std::string count(std::int64_t value) { return std::to_string(value); }

// The same estimate the --json report writes, as a table.
std::string table(const TrainingEstimate& e) {
  const TrainingWorkload& w = e.workload;
  const TrainingMemory& m = e.memory;
  std::string out = "model_type: " + e.model_type + "   framework " + training_framework(w).id + ", " +
                    precision_recipe_info(w.precision).id + ", " + optimizer_info(w.optimizer).id + ", micro-batch " +
                    count(w.micro_batch_size) + " x " + count(w.sequence_tokens) + " tokens, recompute " +
                    recompute_name(w.recompute) + "\n";
  out += "gpus " + count(w.gpus()) + " = tp " + count(w.layout.tensor_parallel) + " x pp " +
         count(w.layout.pipeline_parallel) + " x cp " + count(w.context_parallel) + " x dp " +
         count(w.layout.data_parallel) + "   zero " + count(w.zero_stage) + ", fsdp " + fsdp_mode_name(w.fsdp) + "\n\n";
  out += line("%-46s %20s %26s\n", "per GPU", "bytes", "");
  for (const MemoryTerm& term : m.terms) {
    out += line("  %-44s %20s %26s\n", term.name, with_thousands(term.bytes), gib_and_gb(term.bytes));
    out += "      " + term.formula + "\n";
  }
  const std::int64_t total = m.totals.total_bytes_per_gpu;
  out += line("  %-44s %20s %26s\n", std::string("total (") + memory_statistic_name(m.totals.memory_statistic) + ")",
              with_thousands(total), gib_and_gb(total));
  if (m.totals.cpu_offload_bytes > 0)
    out += "  CPU memory per GPU process: " + gib_and_gb(m.totals.cpu_offload_bytes) + "\n";
  out += "\nparameters: " + with_thousands(m.total_parameters) + " total, " + with_thousands(m.trainable_parameters) +
         " trainable\n";
  if (e.gpu && e.fit) {
    const std::int64_t headroom = e.fit->headroom_bytes;
    out += std::string(e.gpu->name) + ": " + (e.fit->fits ? "fits" : "DOES NOT FIT") + " by " +
           gib_and_gb(headroom < 0 ? -headroom : headroom) + "; largest micro-batch " +
           with_thousands(e.fit->max_micro_batch.value) + "; longest sequence at micro-batch " +
           with_thousands(e.workload.micro_batch_size) + ": " + with_thousands(e.fit->max_sequence_tokens.value) +
           " tokens" +
           (e.fit->max_sequence_tokens.limited_by == kLimitedByPositions ? " (the config's max_position_embeddings)"
                                                                         : "") +
           "\n";
  }
  out += "\nassumptions:\n";
  for (const std::string& a : e.assumptions) out += "  - " + a + "\n";
  return out;
}

}  // namespace

int run_train(const std::vector<std::string>& args, std::string& out, std::string& err) {
  try {
    const CommandArgs parsed = parse_command_args(args, "train",
                                                  {"sequence_parallel",
                                                   "tp_comm_overlap",
                                                   "ep_comm_overlap",
                                                   "offload_optimizer",
                                                   "offload_params",
                                                   "fp32_gradients",
                                                   "adafactor_first_moment",
                                                   "eager_attention",
                                                   "dropout",
                                                   "qlora",
                                                   "lora_dropout",
                                                   "dora",
                                                   "offload_activations",
                                                   "partition_activations",
                                                   "distribute_saved_activations",
                                                   "optimizer_in_backward",
                                                   "compile",
                                                   "eager_loss",
                                                   "paged_optimizer",
                                                   "account_for_embedding_in_pipeline_split",
                                                   "account_for_loss_in_pipeline_split"});
    if (parsed.help) {
      out = std::string(kHelp) + kCustomGpuHelp;
      return 0;
    }
    const std::string config = read_input(parsed.path);
    const TrainingRequest request = parse_training_options(parsed.options);
    const ModelDescription model = parse_hf_config(config);
    const TrainingEstimate estimate = estimate_training(model, weight_tensors(model), request);
    out = parsed.json ? training_report_json(estimate) + "\n" : table(estimate);
    return 0;
  } catch (const OptionError& error) {
    err = option_error_line(error);
  } catch (const ConfigError& error) {
    err = "fitcheck: error: config" + (error.field().empty() ? std::string() : " field '" + error.field() + "'") +
          ": " + error.what() + "\n";
  } catch (const std::exception& error) {
    err = std::string("fitcheck: error: ") + error.what() + "\n";
  }
  return 2;
}

}  // namespace fitcheck::cli
