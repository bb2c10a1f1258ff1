// SPDX-License-Identifier: MIT
// The accelerator catalog: memory, bandwidth, dense peak compute, interconnect and an editable
// rental price for each GPU/TPU/NPU fitcheck knows, every figure with the spec sheet it came from.
// Conventions (GB vs GiB, dense vs sparse, per-direction links, price defaults): docs/hardware.md.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

namespace fitcheck {

// Operand type of the matrix units. Figures are for matrix multiply (tensor/matrix cores) where the
// chip has them; fp32 is the non-tensor vector rate on NVIDIA and the matrix rate on AMD.
enum class ComputeDtype : std::uint8_t { fp32, tf32, bf16, fp16, fp8, fp4, int8, int4 };
inline constexpr std::size_t kComputeDtypeCount = 8;

// How memory_bytes was derived, recorded per entry because "80 GB" means different byte counts.
enum class MemoryConvention : std::uint8_t {
  driver_reported,  // total memory as the driver reports it (nvidia-smi / rocm-smi), ECC at default
  binary_capacity,  // vendor "N GB" that is N GiB of physical memory (vendor states GiB, or chips are)
  vendor_decimal,   // vendor "N GB" taken as N x 10^9 bytes: real capacity not published
};

struct Accelerator {
  const char* id;             // stable lowercase key for the CLI and URLs, e.g. "h100-sxm-80gb"
  const char* name;           // display name
  const char* vendor;         // "NVIDIA", "AMD", "Intel", "Apple", "Google"
  std::int64_t memory_bytes;  // per device as software sees it (one MI250X GCD is one device)
  MemoryConvention memory_convention;
  double memory_bandwidth_bytes_per_second;  // peak, decimal (vendor TB/s x 10^12)
  // Dense peak (never the 2:4 structured-sparsity figure), indexed by ComputeDtype. 0: the chip
  // has no such matrix path or the vendor publishes no rate; callers must not substitute another.
  std::array<double, kComputeDtypeCount> dense_flops_per_second;
  const char* interconnect;                            // the link every GPU pair of a typical node shares
  double interconnect_bytes_per_second_per_direction;  // one GPU's total, one direction; 0: none
  int gpus_per_node;                                   // typical node / host size
  bool unified_memory = false;  // memory is shared with the CPU (Apple): memory_bytes is the whole pool
  // The most the GPU may use of memory_bytes by default; 0: all of it. On Apple silicon macOS caps
  // the GPU's wired memory (MTLDevice.recommendedMaxWorkingSetSize): macos_default_gpu_working_set_bytes.
  std::int64_t gpu_working_set_bytes = 0;
  double price_per_hour_usd;  // EDITABLE DEFAULT: a typical on-demand rental price per device-hour
  const char* price_source;   // where and when that default came from
  const char* sources;        // spec sheets each figure above came from
  // Maximum achievable matmul FLOPS (MAMF) as a share of the dense peak: the fastest torch.matmul
  // a brute-force search over shapes found, bf16 and fp8 (float8_e4m3fn) operands
  // (stas00/ml-engineering 744d01e compute/accelerator/README.md, "Maximum Achievable Matmul FLOPS
  // comparison table"). 0: not measured. The training step time scales FP8 products by fp8 / bf16.
  double mamf_share_bf16 = 0;
  double mamf_share_fp8 = 0;
  // GPUs one NVLink fabric joins when it spans more than a node (GB200 NVL72: 72); 0: the node.
  int nvlink_domain_gpus = 0;
  // The total CUDA reports (cudaMemGetInfo, torch.cuda.mem_get_info), below the driver's figure in
  // memory_bytes, where a published log prints it; 0: not known. vLLM sizes its budget from it.
  std::int64_t cuda_total_bytes = 0;
  // The share of the dense bf16 peak the weight products reach in training, where a published
  // training benchmark of the chip gives it (docs/hardware.md); 0: the training step time's default.
  double training_matmul_share = 0;
};

// Every accelerator, in a fixed order. The storage is immutable and lives for the program.
std::span<const Accelerator> accelerator_catalog();

// An alternative spelling that find_accelerator accepts, and the id it resolves to.
struct AcceleratorAlias {
  const char* alias;
  const char* id;
};
std::span<const AcceleratorAlias> accelerator_aliases();

// Looks up by id or alias. Case-insensitive; spaces and underscores match '-', so driver names
// such as "NVIDIA H100 80GB HBM3" work. Bare family names pick the common rental part:
// "a100" -> a100-sxm-80gb, "h100" -> h100-sxm-80gb, "v100" -> v100-sxm2-16gb (the smaller
// memory, so a fit check errs safe). Returns nullptr when nothing matches.
const Accelerator* find_accelerator(std::string_view id_or_alias);

// A GPU's streaming multiprocessors and L2 cache where a whitepaper gives them (NVIDIA only for now);
// zeros when not known. llama.cpp's MMQ tile traffic depends on both (docs/local.md).
struct GpuOnChipCache {
  int streaming_multiprocessors = 0;
  std::int64_t l2_cache_bytes = 0;
};
GpuOnChipCache gpu_on_chip_cache(const Accelerator& accelerator);

// Dense peak for one dtype; 0 when unsupported or unpublished. Never falls back to another dtype
// (bf16 work on a V100 or T4 is not fp32 work at the fp32 rate).
double peak_flops_per_second(const Accelerator& accelerator, ComputeDtype dtype);

// Dense fp16 tensor rate with fp16 accumulation (cuBLAS CUBLAS_COMPUTE_16F, what llama.cpp's CUDA
// backend multiplies f16 weights with). The catalog's fp16 column is the fp32-accumulate rate,
// which GeForce cards run at half speed. On every NVIDIA tensor-core GPU from Turing to Blackwell
// the whitepapers and datasheets list the fp16-accumulate rate as half the dense int8 rate (RTX 4090
// 330.3 of 660.6, RTX 3090 142 of 284, A100 312 of 624, H100 SXM 989.4 of 1978.9), so: NVIDIA with
// an int8 rate, int8 / 2; otherwise the fp16 column (docs/hardware.md, "GeForce accumulate").
double fp16_accumulate_flops_per_second(const Accelerator& accelerator);

// The memory a fit check may plan against before any utilization factor: gpu_working_set_bytes
// where the entry sets one below memory_bytes, else memory_bytes.
std::int64_t gpu_memory_limit_bytes(const Accelerator& accelerator);

// GPUs one NVLink (or node) fabric joins: nvlink_domain_gpus where a fabric spans nodes (GB200
// NVL72: 72), else gpus_per_node, at least 1. A parallel group within it exchanges at the link's
// bandwidth; a larger one crosses the network. The one rule of training and serving collectives.
int nvlink_fabric_gpus(const Accelerator& accelerator);

// macOS's default GPU working set on Apple silicon for a unified memory of `unified_memory_bytes`:
// 2/3 of it up to 32 GiB, 3/4 above (ggml-metal logs recommendedMaxWorkingSetSize = 21845.34 MB on
// 32 GB, 73728.00 MB on 96 GB). Raised by `sudo sysctl iogpu.wired_limit_mb=N`. docs/hardware.md.
constexpr std::int64_t macos_default_gpu_working_set_bytes(std::int64_t unified_memory_bytes) {
  constexpr std::int64_t kThresholdBytes = std::int64_t{32} << 30;
  return unified_memory_bytes <= kThresholdBytes ? unified_memory_bytes * 2 / 3 : unified_memory_bytes * 3 / 4;
}
inline constexpr const char* kMacosGpuWorkingSetSource =
    "macOS default GPU working set (MTLDevice.recommendedMaxWorkingSetSize): 2/3 of unified memory up to "
    "32 GiB, 3/4 above, as ggml-metal logs it (llama.cpp #2011: 21845.34 MB of 32 GB; #3213: 73728.00 MB of "
    "96 GB); raise it with sudo sysctl iogpu.wired_limit_mb=N (docs/hardware.md)";

// Bytes of one device a run may fill: floor(usable_fraction x gpu_memory_limit_bytes), the product
// taken in double and truncated to whole bytes. The one budget of every fit check: `fitcheck infer` passes
// gpu_memory_utilization (vLLM's --gpu-memory-utilization, default 0.9), the planners
// 1 - headroom.
std::int64_t memory_budget_bytes(const Accelerator& accelerator, double usable_fraction);

// Price of one device-hour in USD: `given_price_usd` when it is set (>= 0), else the catalog's
// editable default price_per_hour_usd. The one fallback of latency costs, planners and training cost.
double price_per_gpu_hour_usd(const Accelerator& accelerator, double given_price_usd);

// The id a user-defined accelerator carries in options and reports (gpu=custom).
inline constexpr const char* kCustomAcceleratorId = "custom";

// A user-defined accelerator: `figures` gives every number (its text fields are ignored); the
// result owns copies of `name` and `interconnect`, which its const char* fields point into, so it
// is shared immutable rather than copied. vendor, price_source and sources read "user-defined"
// (with the base entry named when there is one). docs/hardware.md, "A custom accelerator".
std::shared_ptr<const Accelerator> make_custom_accelerator(const Accelerator& figures, std::string name,
                                                           std::string interconnect, const Accelerator* based_on);

// Whether the accelerator is one of the catalog's NVIDIA data-center parts with HBM (V100 to GB200;
// hardware_nvidia_hbm.cpp), matched by id: a custom accelerator never is.
bool is_nvidia_hbm_part(const Accelerator& accelerator);

// GPU generation, read from the catalog's rates: an fp4 path is Blackwell, an fp8 path on HBM is
// Hopper (on GDDR, Ada), a bf16 path Ampere, else older.
enum class GpuGeneration : std::uint8_t { older, ampere, ada, hopper, blackwell };
GpuGeneration gpu_generation(const Accelerator& gpu);
const char* gpu_generation_name(GpuGeneration generation);

const char* compute_dtype_name(ComputeDtype dtype);  // "fp32", "tf32", "bf16", ...
const char* memory_convention_name(MemoryConvention convention);

namespace detail {
// find_accelerator's key match, shared with find_cpu: `key` is stored folded (lowercase, '-');
// the query is folded on the fly (ASCII case, ' ' and '_' as '-').
bool matches_folded_key(std::string_view query, std::string_view key);
}  // namespace detail

}  // namespace fitcheck
