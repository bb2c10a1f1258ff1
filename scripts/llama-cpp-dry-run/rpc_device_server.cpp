// SPDX-License-Identifier: MIT
// A ggml-rpc server over the CPU backend on 127.0.0.1:50052: the device dry_run.cpp offloads layers to.
#include "ggml-backend.h"
#include "ggml-rpc.h"

int main() {
  ggml_backend_load_all();
  ggml_backend_dev_t device = ggml_backend_dev_by_type(GGML_BACKEND_DEVICE_TYPE_CPU);
  ggml_backend_rpc_start_server("127.0.0.1:50052", nullptr, 2, 1, &device);
  return 0;
}
