// SPDX-License-Identifier: MIT
// Local inference as llama.cpp (and Ollama, which runs llama.cpp's loader) runs a model: which
// layers go to which GPU (-ngl, --tensor-split, --n-cpu-moe), the model, KV cache and compute
// buffers each backend allocates, the most layers that fit, and the prompt and generation speed of
// that placement. Every rule cites the llama.cpp or Ollama source it follows (docs/local.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fitcheck/checkpoint.hpp"
#include "fitcheck/cpu.hpp"
#include "fitcheck/hardware.hpp"
#include "fitcheck/model.hpp"
#include "fitcheck/options.hpp"
#include "fitcheck/quantization.hpp"

namespace fitcheck {

// Parameters of matrices stored as a float type (f16, bf16, f32); the rest of a parameter count is
// stored quantized. A GPU backend multiplies each storage type on its own path (docs/local.md,
// "Prompt processing"), so prompt speed needs the split.
struct LocalFloatParameters {
  std::int64_t f16 = 0;
  std::int64_t bf16 = 0;
  std::int64_t f32 = 0;
};

// Parameters of quantized matrices by ggml type (GgufType order); types fitcheck has no GgufType for
// (the IQ2/IQ3 families, ...) are in none. ggml-cpu picks its matrix-multiply kernel by type.
using LocalQuantizedParameters = std::array<std::int64_t, kGgufTypeCount>;

// A quantized weight matrix as CUDA's MMQ tiles it (docs/local.md, "MMQ's tile traffic"): `rows`
// output features by `columns` input features, `copies` of them (a routed-expert tensor: one per expert).
struct LocalMatrix {
  std::int64_t rows = 0;
  std::int64_t columns = 0;
  std::int64_t copies = 1;
  std::int64_t bytes = 0;  // all copies
  bool routed_experts = false;
};

// One repeating layer ("blk.N.*" in GGUF) as llama.cpp loads it.
struct LocalLayer {
  std::int64_t dense_bytes = 0;   // every tensor of the layer except the routed experts
  std::int64_t expert_bytes = 0;  // routed experts (ffn_{gate,up,down}_exps): what --n-cpu-moe keeps in RAM
  std::int64_t dense_parameters = 0;
  std::int64_t expert_parameters = 0;
  LocalFloatParameters dense_float;  // of dense_parameters: matrices stored as f16 / bf16 / f32
  LocalFloatParameters expert_float;
  LocalQuantizedParameters dense_quantized{};  // of dense_parameters
  LocalQuantizedParameters expert_quantized{};
  std::int64_t kv_key_width = 0;    // n_embd_k_gqa: K values per token in the cache
  std::int64_t kv_value_width = 0;  // n_embd_v_gqa
  std::int64_t sliding_window = 0;  // n_swa: the cache holds only the window (llama_kv_cache_iswa); 0: full
  // A state-space or linear-attention layer's state per sequence, f32 values (llama_memory_recurrent,
  // llama_hparams::n_embd_r and n_embd_s): the convolution's last conv_kernel - 1 inputs of its conv
  // channels, and the recurrent state (state_size x inner width). 0 for other layers.
  std::int64_t recurrent_conv_values = 0;
  std::int64_t recurrent_state_values = 0;
  // The ops (kernels) llama.cpp's graph runs for this layer at one token, besides the attention core,
  // which depends on flash attention (local_layer_graph_ops); `attention`: the layer has one.
  std::int64_t graph_ops = 0;
  bool attention = false;
  // Of graph_ops, what Metal's fusion merges (local_kernels.cpp): RMS norms (RMS_NORM and its weight's
  // MUL), LayerNorms (NORM, MUL and the bias's ADD) and the ADDs summing the routed experts' outputs.
  std::int64_t rms_norms = 0;
  std::int64_t layer_norms = 0;
  std::int64_t expert_sum_adds = 0;
  // The routed experts' weight matrices (ffn_{gate,up,down}_exps, or a fused gate_up): one MUL_MAT_ID
  // each at every token.
  std::int64_t expert_matrices = 0;
  // Of the kernels left after fusion, those that run beside the one before them, with no memory barrier
  // between, on ggml-metal's concurrent encoder (local_graph_ops.hpp LayerOpCount::concurrent_kernels).
  std::int64_t concurrent_kernels = 0;
  std::vector<LocalMatrix> quantized_matrices;  // its matrices stored in a quantized type
  // Its largest weight matrix outside the routed experts, and its largest routed-expert tensor (all experts),
  // by bytes: what the op offload copies to the GPU at once when the layer's weights sit in RAM.
  LocalMatrix largest_dense_matrix;
  LocalMatrix largest_expert_matrix;
};

// The model as llama.cpp's loader sees it: tensors grouped into the input layer (token embedding,
// always on the CPU), the repeating layers, and the output layer (output norm and head).
struct LocalModel {
  std::vector<LocalLayer> layers;
  std::int64_t input_bytes = 0;   // token_embd
  std::int64_t output_bytes = 0;  // output_norm + output (a copy of token_embd when tied)
  std::int64_t output_parameters = 0;
  LocalFloatParameters output_float;  // of output_parameters
  LocalQuantizedParameters output_quantized{};
  // The head, when stored quantized.
  std::vector<LocalMatrix> output_quantized_matrices;
  LocalMatrix head_matrix;            // the head (output.weight, or token_embd when tied), in any type
  std::int64_t output_graph_ops = 0;  // output norm and head: the ops the output layer runs per token
  std::int64_t output_rms_norms = 0;  // of those, the output norm as above (LocalLayer::rms_norms)
  std::int64_t output_layer_norms = 0;
  std::int64_t hidden_size = 0;  // n_embd
  std::int64_t num_heads = 0;    // n_head (the widest layer)
  std::int64_t head_dim = 0;     // n_embd_head_k
  std::int64_t vocab_size = 0;
  std::int64_t feed_forward = 0;         // n_ff of a dense layer (0: none)
  std::int64_t expert_feed_forward = 0;  // n_ff_exp
  std::int64_t num_experts = 0;
  std::int64_t experts_per_token = 0;
  std::string weights;  // "q4_k_m (config)", "GGUF MOSTLY_Q4_K_M (header)"
  // Vision and audio encoders with their projectors (ParameterCount's vision_tower +
  // multimodal_projector + audio_tower + audio_projector): what llama.cpp loads from a separate
  // multimodal projector file (--mmproj). 0 for a text-only model and for a GGUF, which holds the
  // language model only.
  std::int64_t encoder_parameters = 0;
  std::vector<std::string> assumptions;
};

// From a config.json's shapes and a weight format (bytes per tensor as llama-quantize stores a GGUF
// preset; other formats as weight_bytes sizes them). Throws std::invalid_argument for a model
// without decoder layers.
LocalModel local_model_from_config(const ModelDescription& model, WeightFormat format,
                                   const WeightFormatOptions& options = {});

// Exactly from a GGUF header: every tensor's bytes by its name (blk.N., token_embd, output),
// the shapes from the hyperparameters. Throws std::invalid_argument when a key it needs is absent.
LocalModel local_model_from_gguf(const CheckpointSummary& summary);

enum class LocalBackend : std::uint8_t { cuda, metal, vulkan, rocm, sycl, cpu };
const char* local_backend_name(LocalBackend backend);  // "cuda", ...
// Whether ggml-cuda multiplies a prompt's quantized weights with MMQ by default in a llama.cpp build
// (absent: a current one): from b3216 (ggml-org/llama.cpp#8075, 2024-06-24); before it a build with tensor
// cores dequantized them to f16 for cuBLAS over batches of more than 32 tokens.
bool local_cuda_mmq_by_default(std::optional<std::int64_t> llama_cpp_build);
// Whether a llama.cpp build maps the model file by default (absent: a current one, which does): all but
// b7668-b7852, which read it with direct I/O where the file opens with it (Linux, Windows) and so map nothing
// (ggml-org/llama.cpp#18166, #19109; local_rates.cpp).
bool local_maps_model_file_by_default(std::optional<std::int64_t> llama_cpp_build);
std::optional<LocalBackend> find_local_backend(std::string_view name);
// What llama.cpp would pick for this GPU: CUDA on NVIDIA, Metal on Apple, ROCm on AMD, SYCL on Intel;
// absent for an accelerator no ggml backend runs on (Google's TPUs, Intel's Gaudi).
std::optional<LocalBackend> default_local_backend(const Accelerator& gpu);
// Whether a llama.cpp backend runs on this GPU: CUDA on NVIDIA, Metal on Apple, ROCm (HIP) on AMD, SYCL
// on Intel, NVIDIA and AMD (oneAPI's plugins), Vulkan on any GPU with a ggml backend, the CPU always.
// A user-defined GPU is taken as the user describes it.
bool local_backend_runs_on(LocalBackend backend, const Accelerator& gpu);
// Where llama.cpp runs, in words, for refusals: "NVIDIA, AMD, Intel Arc and Apple GPUs, and on the CPU".
const char* llama_cpp_devices_text();

// How llama.cpp's CUDA backend multiplies a weight by a prompt batch (ggml-cuda.cu
// ggml_cuda_mul_mat): quantized types with MMQ, int8 tensor-core kernels (mmq.cu
// ggml_cuda_should_use_mmq: every NVIDIA GPU from Turing on); or cuBLAS: f16 with CUBLAS_COMPUTE_16F
// (fp16 accumulate), bf16 with CUBLAS_COMPUTE_32F, f32 with cublasSgemm, and quantized weights
// dequantized to f16 first when MMQ is off (GGML_CUDA_FORCE_CUBLAS; the default of builds before
// ggml-org/llama.cpp#8075, June 2024) or the GPU has no int8 tensor rate.
enum class LocalMatmulPath : std::uint8_t { mmq, cublas_f16, cublas_bf16, cublas_f32, cublas_f16_f32acc };
const char* local_matmul_path_name(LocalMatmulPath path);  // "mmq", "cublas_f16", ...
// The peak a path runs against on one GPU: MMQ the dense int8 tensor rate (NVIDIA and custom GPUs;
// 0 for other vendors); cuBLAS f16 the fp16-accumulate tensor rate (twice the catalog's fp16 figure
// on GeForce cards); bf16 the bf16 rate; f32 the fp32 rate; f16 with f32 accumulators (attention's
// scores) the catalog's fp16 rate. Volta's cuBLAS f16 accumulates in fp32
// (prefer_f32_output), its fp16 rate. On Hopper, MMQ and cuBLAS f16 run at half the dense peak (the
// mma.sync rate; local_speed.cpp, kHopperMmaSyncShare).
double local_matmul_peak_flops(const Accelerator& gpu, LocalMatmulPath path);

// The type of llama.cpp's multimodal projector file (convert_hf_to_gguf.py --mmproj writes the encoders
// apart from the language model; llama-server loads it with --mmproj): off (not loaded), or the type
// its matrices are stored in.
enum class LocalMmprojType : std::uint8_t { off, f32, f16, bf16, q8_0 };
const char* local_mmproj_type_name(LocalMmprojType type);  // "off", "f32", "f16", "bf16", "q8_0"
std::optional<LocalMmprojType> find_local_mmproj_type(std::string_view name);
// The file's tensor bytes for `parameters` encoder parameters stored as `type`, by ggml's block sizes
// (gguf_type_info; bf16 is 2 bytes as f16); 0 when off.
std::int64_t local_mmproj_bytes(std::int64_t parameters, LocalMmprojType type);

// ggml's KV cache types: f16 (2 bytes a value), q8_0 (34 bytes per 32), q4_0 (18 bytes per 32).
enum class LocalKvType : std::uint8_t { f16, q8_0, q4_0 };
const char* local_kv_type_name(LocalKvType type);
std::optional<LocalKvType> find_local_kv_type(std::string_view name);

struct LocalRequest {
  std::vector<Accelerator> gpus;  // in device order (CUDA0, CUDA1, ...); empty: CPU only
  std::int64_t ram_bytes = 0;     // system RAM for the CPU buffers; 0: not checked
  // RAM bandwidth and FLOP/s of CPU layers (--ram-mts, --ram-channels change this copy's memory); absent: stated
  // defaults.
  std::optional<CpuDevice> cpu;
  // CPU threads (llama.cpp -t): absent, llama.cpp's default (common_cpu_get_num_math on Linux): one per
  // physical core, only the performance cores of a hybrid Intel part.
  std::optional<int> threads;
  LocalBackend backend = LocalBackend::cuda;
  std::int64_t context = 4096;  // n_ctx over all slots (llama-server -c)
  std::int64_t parallel = 1;    // slots (-np, Ollama's OLLAMA_NUM_PARALLEL); each gets context / parallel
  LocalKvType kv_type = LocalKvType::f16;
  bool flash_attention = true;
  bool kv_offload = true;  // false: -nkvo, every layer's KV cache (and its attention) stays on the CPU
  // llama.cpp maps the model file (its default); false (--no-mmap) reads it into the GPU backend's pinned
  // host buffer instead, which the op offload copies from faster (local_speed.cpp, local_host_copy_rule).
  // Options left unset take the build's default (local_maps_model_file_by_default).
  bool mmap = true;
  // false: quantized weights dequantized to f16 for cuBLAS (GGML_CUDA_FORCE_CUBLAS, or a build before MMQ
  // became the default: local_cuda_mmq_by_default)
  bool cuda_mmq = true;
  std::optional<std::int64_t> n_gpu_layers;  // absent: the most that fit
  std::int64_t n_cpu_moe = 0;                // experts of the first N layers stay in RAM
  std::vector<double> tensor_split;          // empty: split by each GPU's free memory
  std::int64_t ubatch = 512;                 // n_ubatch
  std::int64_t batch = 2048;                 // n_batch: the tokens of one llama_decode call (-b)
  std::int64_t prompt_len = 512;
  std::int64_t gen_len = 128;
  // Tokens already in the slot's cache before the prompt (llama-bench -d, "pp512 @ d8192"; a
  // conversation's earlier turns): the prompt attends them too, and generation runs after them.
  std::int64_t depth = 0;
  std::string model_path = "model.gguf";  // for the printed command only
  // The encoders' file (llama-server --mmproj): absent, f16 when the model has encoders (the type
  // ggml-org's and most published GGUF repositories ship), off without. mmproj_offload false
  // (--no-mmproj-offload) keeps it in RAM.
  std::optional<LocalMmprojType> mmproj;
  bool mmproj_offload = true;
  std::string model_name = "model";  // names the mmproj file in the command: mmproj-<model_name>-<type>.gguf
  // The llama.cpp release (bNNNN) whose graph runs, for the rules that changed with it (Metal's op
  // fusion, local_kernels.cpp); absent: a current build.
  std::optional<std::int64_t> llama_cpp_build;
};

// One backend buffer set: a GPU, or the CPU (last).
struct LocalDeviceUse {
  std::string name;    // "CUDA0", "Metal", "Vulkan1", "CPU"
  std::string gpu_id;  // catalog id; "" for the CPU
  std::int64_t model_buffer_bytes = 0;
  // The CPU's model buffer as llama.cpp prints it when it maps the file (mmap, its default): the
  // span of the file from the first to the last tensor kept on the CPU, GPU tensors between them
  // included (--n-cpu-moe and tensor overrides interleave them). Their pages are read once to upload them and may be
  // dropped again, so the RAM a placement needs is model_buffer_bytes; 0 for GPUs.
  std::int64_t mapped_model_buffer_bytes = 0;
  std::int64_t kv_buffer_bytes = 0;
  std::int64_t compute_buffer_bytes = 0;
  std::int64_t mmproj_buffer_bytes = 0;  // the multimodal projector file's tensors (clip.cpp's weight buffer)
  // The recurrent layers' states ("RS buffer"): f32, one row per cell, where the layer's KV would live.
  std::int64_t recurrent_state_buffer_bytes = 0;
  std::int64_t limit_bytes = 0;  // what may be allocated (GPU memory less the runtime reserve; RAM); 0: unchecked
  std::int64_t layers = 0;       // repeating layers whose dense tensors live here
  bool holds_output = false;
  std::int64_t total_bytes() const {
    return model_buffer_bytes + kv_buffer_bytes + compute_buffer_bytes + mmproj_buffer_bytes +
           recurrent_state_buffer_bytes;
  }
  bool fits() const { return limit_bytes == 0 || total_bytes() <= limit_bytes; }
};

struct LocalPlacement {
  std::int64_t n_gpu_layers = 0;  // as -ngl counts: repeating layers + 1 for the output layer
  std::int64_t n_layers = 0;      // block_count + 1 (llama.cpp logs "offloaded 33/33 layers")
  // Layers whose routed experts stay in RAM: --n-cpu-moe as given, or as llama.cpp's --fit chose it.
  std::int64_t n_cpu_moe = 0;
  bool fitted = false;       // the layers and experts placed by llama.cpp's --fit rule (estimate_local)
  std::int64_t kv_size = 0;  // cells: the context padded as llama.cpp pads it
  // Rows of the recurrent state, one per sequence the context holds: max(1, parallel); 0 without
  // recurrent layers (llama_model::create_memory: mem_size = max(1, n_seq_max)).
  std::int64_t recurrent_cells = 0;
  std::vector<int> layer_device;  // per repeating layer: GPU index, or -1 for the CPU
  int output_device = -1;
  std::vector<LocalDeviceUse> devices;            // GPUs in order, then the CPU
  LocalMmprojType mmproj = LocalMmprojType::off;  // the request's, resolved for the model
  int mmproj_device = -1;                         // index into devices of the one holding it; -1: none
  // The first GPU runs a prompt ubatch's ops of weights kept in RAM, each copied in (llama.cpp's op offload),
  // and its compute buffer holds the largest such copy (place_local).
  bool op_offload_copies = false;
  bool fits = true;
  std::int64_t recurrent_state_bytes() const {  // the RS buffers of every device
    std::int64_t total = 0;
    for (const LocalDeviceUse& d : devices) total += d.recurrent_state_buffer_bytes;
    return total;
  }
};

// How one generated token's time on a device is made, at the middle of the generation: the bytes it
// reads at the backend's share of the device's bandwidth, the ops of llama.cpp's graph it runs at the
// backend's time per op, and the hidden state's copies into it from the previous device.
struct LocalTokenTime {
  double bytes = 0;                       // weights and KV cache read, recurrent states moved, for the token
  double bandwidth_fraction = 0;          // of the device's peak bandwidth
  double bandwidth_bytes_per_second = 0;  // peak x bandwidth_fraction
  std::int64_t graph_ops = 0;
  double seconds_per_op = 0;
  double crossing_seconds = 0;
  // Blocking handoffs between backends into this device after the token's first crossing, and their time
  // (local_split_handoff_seconds each).
  std::int64_t handoffs = 0;
  double handoff_seconds = 0;
  // A CPU's multiplies for the token at ggml-cpu's kernel rates (local_cpu_matmul.cpp; 0 on a GPU or without
  // --cpu): the token waits on them where they take longer than its reads.
  double compute_seconds = 0;
  // max(bytes / bandwidth, compute_seconds) + graph_ops x seconds_per_op + crossing_seconds + handoff_seconds
  double seconds = 0;
};

// How a device's share of the prompt's time is made, over all the prompt's ubatches: its multiplies
// (and attention) at its rates, or its resident weights read once a ubatch when that is slower; weights
// it holds in RAM copied to the first GPU and multiplied there (llama.cpp's op offload); the MoE layers'
// combine, the attention scores written without flash attention, and the hidden state's copies into it.
struct LocalPromptTime {
  double multiply_seconds = 0;        // the products and the attention, on this device or (offloaded) the GPU
  double weight_read_seconds = 0;     // its resident weights once a ubatch at its bandwidth; 0 when offloaded
  double offload_copy_seconds = 0;    // weights in RAM copied over PCIe a ubatch (op offload); else 0
  double expert_combine_seconds = 0;  // the routed experts' outputs through memory (GPUs)
  double scores_seconds = 0;          // the attention scores through memory (without flash attention)
  double crossing_seconds = 0;        // the hidden state copied in from the previous device
  double handoff_seconds = 0;         // blocking handoffs into it, each ubatch (LocalTokenTime::handoffs)
  int offload_gpu = -1;               // the GPU (device index) multiplying a CPU's weights (op offload); -1: none
  double seconds = 0;  // max(multiply, weight_read) or offload_copy + multiply; + combine, scores, crossings,
                       // handoffs
  bool offloaded() const { return offload_gpu >= 0; }
};

struct LocalSpeed {
  double prompt_tokens_per_second = 0;
  double prompt_tokens = 0;    // the prompt's tokens (at least 1)
  double prompt_ubatches = 0;  // ceil(prompt tokens / ubatch)
  // Several GPUs holding every layer: llama.cpp pipelines the ubatches of one batch over them
  // (local_pipeline.cpp); 1 otherwise or with one ubatch per batch.
  bool prompt_pipelined = false;
  double prompt_pipeline_speedup = 1;  // the prompt time without the overlap over the time with it
  // Without flash attention: the share of the prompt's work spent moving the attention scores llama.cpp
  // materializes (local_attention_scores.cpp); 0 with flash attention.
  double prompt_scores_time_share = 0;
  // MoE models on GPUs: the share of the prompt's work spent combining the routed experts' outputs
  // through memory (local_kernels.cpp local_expert_combine_bytes); 0 for a dense model.
  double prompt_expert_combine_time_share = 0;
  double generation_tokens_per_second = 0;            // mean over gen_len tokens after the prompt
  double generation_tokens_per_second_empty = 0;      // at an empty context
  double generation_tokens_per_second_full = 0;       // with the whole context filled
  std::vector<double> prompt_time_share;              // per device (as devices): its share of the prompt's work
  std::vector<LocalPromptTime> prompt_time;           // per device: how its share is made
  std::vector<double> generation_time_share;          // per device: fraction of one token's time
  std::vector<LocalTokenTime> generation_token_time;  // per device: how that time is made
};

// Where the model runs, as someone choosing a machine asks it: wholly on the GPU(s), split between the
// GPU(s) and RAM, on the CPU alone, or not at all (a device over its limit).
enum class LocalRunsOn : std::uint8_t { gpus, gpus_and_ram, cpu, does_not_fit };
const char* local_runs_on_name(LocalRunsOn runs_on);  // "gpus", "gpus_and_ram", "cpu", "does_not_fit"

// The placement and speed in one line's facts (the page's headline, the CLI's first line): where the
// layers are, which device a generated token waits on most, and what is missing where it does not fit.
struct LocalVerdict {
  LocalRunsOn runs_on = LocalRunsOn::gpus;
  std::int64_t layers_on_gpus = 0;        // repeating layers whose dense weights are on a GPU
  std::int64_t layers_in_ram = 0;         // repeating layers whose dense weights stay in RAM
  bool output_in_ram = false;             // the output layer on the CPU (-ngl of n_layers - 1 or fewer)
  std::int64_t expert_layers_in_ram = 0;  // layers whose routed experts stay in RAM (--n-cpu-moe)
  int generation_bound_device = -1;       // index into devices: the largest share of a generated token's time
  double generation_bound_share = 0;      // that share (LocalSpeed::generation_time_share)
  int short_device = -1;                  // the device furthest over its limit; -1 where everything fits
  std::int64_t shortfall_bytes = 0;       // its total less its limit
};

// The verdict of a placement and its speed (estimate_local fills LocalEstimate::verdict with it).
LocalVerdict local_verdict(const LocalPlacement& placement, const LocalSpeed& speed);

struct LocalEstimate {
  LocalBackend backend = LocalBackend::cuda;  // the request's, as the speed model ran it
  bool mmap = true;                           // the request's: the model file mapped (llama.cpp's default)
  LocalPlacement placement;
  LocalSpeed speed;
  LocalVerdict verdict;
  std::string llama_cpp_command;  // llama-server flags that reproduce the placement
  std::int64_t ollama_num_gpu = 0;
  std::int64_t ollama_num_ctx = 0;  // per slot: Ollama multiplies num_ctx by its parallel slots
  // The Ollama server's environment the placement needs (ollama/ollama envconfig): flash attention,
  // the KV cache type and the parallel slots are server settings, not per-model parameters.
  std::vector<std::string> ollama_environment;
  std::vector<std::string> assumptions;
};

// The placement of a given n_gpu_layers (llama.cpp's load_tensors rule). Throws std::invalid_argument
// naming the option on bad input.
LocalPlacement place_local(const LocalModel& model, const LocalRequest& request, std::int64_t n_gpu_layers);

// The whole answer: the given -ngl; else, as llama.cpp's --fit (b7407 on) places a MoE model that does not fit, every
// layer on the GPU(s) and the routed experts of the fewest layers in RAM; else the most layers whose buffers fit
// every GPU; speed; commands.
LocalEstimate estimate_local(const LocalModel& model, const LocalRequest& request);

// One of llama.cpp's common weight types for a config's model on the request's machine: where it runs and how
// fast, placed as llama.cpp's --fit places it (the Local tab's "Weight formats" table; fitcheck local
// --compare-formats).
struct LocalFormatRow {
  WeightFormat format = WeightFormat::gguf_q4_k_m;
  bool chosen = false;                  // the type of the request's own report
  std::int64_t model_buffer_bytes = 0;  // every device's model buffer together: the weights llama.cpp loads
  LocalEstimate estimate;
};

// The types compared: f16, q8_0, q6_k, q5_k_m, q4_k_m, iq4_xs, q3_k_m, q2_k, and mxfp4_moe for a MoE model. Each
// row drops the request's n_gpu_layers and n_cpu_moe so that every type is placed as llama.cpp fits it; the row of
// `chosen` (the request's own type, where it is one of them) is marked.
std::vector<LocalFormatRow> compare_local_formats(const ModelDescription& description, const LocalRequest& request,
                                                  std::optional<WeightFormat> chosen = std::nullopt);

// The options of `fitcheck local` as key/value pairs (CLI flags with '_' for '-'): gpu (comma list,
// one entry per device, "custom" with the custom_gpu_* keys), ram_gib, cpu, ram_mts, ram_channels, weights,
// weight_bits, group_size, context, parallel, kv_dtype, flash_attention (on|off), kv_offload (on|off), n_gpu_layers,
// n_cpu_moe, tensor_split, backend, cuda_mmq (on|off), ubatch, batch, prompt_len, gen_len, depth, mmproj
// (off|f16|bf16|f32|q8_0), mmproj_offload (on|off). Throws OptionError naming the option.
struct LocalOptions {
  LocalRequest request;
  std::optional<WeightFormat> weights;  // absent: the config's own format (a GGUF states its own)
  WeightFormatOptions weight_options;
};
LocalOptions parse_local_options(const OptionList& options);

// JSON keys: backend, n_gpu_layers, n_layers, mmproj {type, encoder_parameters, device, bytes}, devices [{name,
// model_buffer_bytes, kv_buffer_bytes, compute_buffer_bytes, mmproj_buffer_bytes, ...}], prompt_tokens_per_second,
// generation_tokens_per_second, llama_cpp_command, ollama_parameters {num_gpu, num_ctx}, assumptions (docs/local.md).
std::string local_report_json(const LocalModel& model, const LocalEstimate& estimate);

// The whole report from a config.json's text and the options (the page's call, and the CLI's for a
// config): the weights option or the config's own format, the GGUF file llama-server would load
// named "<model_name>-<weights>.gguf" in the command. Throws ConfigError / OptionError naming the
// field or option.
// The catalog's GPUs llama.cpp runs on, in catalog order, with the backend it picks for each:
// [{id, name, vendor, backend}] (the page's GPU picker; accelerators no ggml backend runs on are left out).
std::string local_gpu_catalog_json();

std::string local_report_json(std::string_view config_json_text, const OptionList& options,
                              std::string_view model_name = "model");

// compare_local_formats for a config.json and the options of `fitcheck local` (the weights, given or the config's own,
// name the row marked chosen; engine mlx answers mlx_formats_json): {"formats": [{weights, model_buffer_bytes,
// n_gpu_layers, n_layers, n_cpu_moe, fits, runs_on, generation_tokens_per_second, prompt_tokens_per_second,
// llama_cpp_command, chosen}]} (docs/local.md).
std::string local_formats_json(std::string_view config_json_text, const OptionList& options,
                               std::string_view model_name = "model");

}  // namespace fitcheck
