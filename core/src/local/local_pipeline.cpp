// SPDX-License-Identifier: MIT
// llama.cpp's pipeline parallelism over several GPUs for a prompt (docs/local.md, "Pipeline
// parallelism").
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "local/local_rules.hpp"

namespace fitcheck {

// Pipeline parallelism. llama_context turns it on when several GPUs hold every repeating layer and
// the output layer, split by layer, with the KV cache on the GPUs and no tensor overrides
// (--n-cpu-moe is one) (src/llama-context.cpp, pipeline_parallel). The scheduler then keeps
// GGML_SCHED_MAX_COPIES = 4 copies of each split's inputs, and a split waits only for the event of
// its own copy (ggml/src/ggml-backend.cpp at 0054c013, ggml_backend_sched_new and
// ggml_backend_sched_compute_splits), so once a GPU hands a ubatch's hidden state on it starts the
// next ubatch of the same llama_decode call (n_batch tokens, cut into ubatches). The hand-over must
// be asynchronous: CUDA copies between GPUs on the source stream (ggml-cuda.cu
// ggml_backend_cuda_cpy_tensor_async; ROCm builds the same file), while Vulkan copies between devices
// synchronously ("Async copy only works within the same device", ggml-vulkan.cpp
// ggml_backend_vk_cpy_tensor_async), which leaves its splits in sequence. A batch of u ubatches then
// takes the devices' times for one ubatch added up, plus (u - 1) times the slowest device's time for
// one; fitcheck starts the pipeline again at each batch.
LocalPromptPipeline local_prompt_pipeline(const LocalRequest& request, const LocalPlacement& p,
                                          const std::vector<double>& device_seconds, double tokens, double ubatches) {
  LocalPromptPipeline pipeline;
  const std::size_t n_gpus = request.gpus.size();
  const bool async_copies = request.backend == LocalBackend::cuda || request.backend == LocalBackend::rocm;
  bool all_on_gpus = p.output_device >= 0;
  for (int device : p.layer_device) all_on_gpus = all_on_gpus && device >= 0;
  if (n_gpus < 2 || !async_copies || !all_on_gpus || !request.kv_offload || p.n_cpu_moe > 0 || ubatches < 2)
    return pipeline;
  const double batch = static_cast<double>(request.batch);
  const double batches = std::ceil(tokens / batch);
  if (ubatches <= batches) return pipeline;  // one ubatch a batch: nothing to overlap
  double sum = 0;
  double slowest = 0;
  for (double seconds : device_seconds) {
    const double per_ubatch = seconds / ubatches;
    sum += per_ubatch;
    slowest = std::max(slowest, per_ubatch);
  }
  pipeline.active = true;
  pipeline.seconds = batches * sum + (ubatches - batches) * slowest;
  pipeline.rule =
      "prompt: llama.cpp's pipeline parallelism (every layer on the GPUs): in each batch of " +
      std::to_string(static_cast<std::int64_t>(batch)) + " tokens a GPU starts the next ubatch of " +
      std::to_string(request.ubatch) +
      " once it has handed one on: batches x the devices' summed time a ubatch + (ubatches - batches) x the "
      "slowest's (llama-context.cpp pipeline_parallel, ggml-backend.cpp ggml_backend_sched_compute_splits)";
  return pipeline;
}

}  // namespace fitcheck
