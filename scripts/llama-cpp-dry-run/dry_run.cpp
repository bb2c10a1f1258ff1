// SPDX-License-Identifier: MIT
// Loads a GGUF with no_alloc (llama_model_params, llama.cpp b7xxx and later) and creates a context, so
// llama.cpp prints the model, KV and compute buffers it would allocate, without allocating them. With
// RPC=host:port set, the layers go to that ggml-rpc device (rpc_device_server.cpp), which stands in for a
// GPU: the graph inputs stay on the CPU and the device gets its own compute buffer, as CUDA's would.
//   dry_run MODEL.gguf [n_ctx n_ubatch flash_attn(1/0/-1 auto) n_seq type_k(f16|q8_0|q4_0) n_batch]
//   environment: RPC=127.0.0.1:50052  NGL=99  SWA_FULL=1  KV_UNIFIED=1
#include <cstdio>
#include <cstdlib>
#include <string>

#include "ggml-rpc.h"
#include "llama.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: dry_run MODEL.gguf [n_ctx n_ubatch fa n_seq type_k n_batch]\n");
    return 1;
  }
  const int n_ctx = argc > 2 ? std::atoi(argv[2]) : 4096;
  const int n_ubatch = argc > 3 ? std::atoi(argv[3]) : 512;
  const int flash = argc > 4 ? std::atoi(argv[4]) : -1;
  const int n_seq = argc > 5 ? std::atoi(argv[5]) : 1;
  const std::string cache_type = argc > 6 ? argv[6] : "f16";
  const int n_batch = argc > 7 ? std::atoi(argv[7]) : 2048;
  llama_backend_init();
  if (const char* endpoint = std::getenv("RPC")) ggml_backend_register(ggml_backend_rpc_add_server(endpoint));

  llama_model_params model_params = llama_model_default_params();
  model_params.no_alloc = true;
  model_params.use_extra_bufts = false;
  model_params.load_mode = LLAMA_LOAD_MODE_NONE;  // the mapped path does not take no_alloc
  model_params.n_gpu_layers = std::getenv("NGL") ? std::atoi(std::getenv("NGL")) : 0;
  llama_model* model = llama_model_load_from_file(argv[1], model_params);
  if (!model) return 2;

  llama_context_params context_params = llama_context_default_params();
  context_params.n_ctx = n_ctx;
  context_params.n_batch = n_batch;
  context_params.n_ubatch = n_ubatch;
  context_params.n_seq_max = n_seq;
  context_params.flash_attn_type = flash < 0   ? LLAMA_FLASH_ATTN_TYPE_AUTO
                                   : flash > 0 ? LLAMA_FLASH_ATTN_TYPE_ENABLED
                                               : LLAMA_FLASH_ATTN_TYPE_DISABLED;
  const ggml_type type = cache_type == "q8_0"   ? GGML_TYPE_Q8_0
                         : cache_type == "q4_0" ? GGML_TYPE_Q4_0
                                                : GGML_TYPE_F16;
  context_params.type_k = type;
  context_params.type_v = type;
  // llama-server's defaults, not the library's: a sliding-window cache of the window only, one stream per slot.
  context_params.swa_full = std::getenv("SWA_FULL") != nullptr;
  context_params.kv_unified = std::getenv("KV_UNIFIED") != nullptr;
  llama_context* context = llama_init_from_model(model, context_params);
  if (!context) return 3;
  llama_free(context);
  llama_model_free(model);
  return 0;
}
