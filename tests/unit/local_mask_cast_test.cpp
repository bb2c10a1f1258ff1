// SPDX-License-Identifier: MIT
// The flash-attention mask of llama.cpp builds before b9410: an f32 graph input that the device of the first
// attention layer copies in and casts to f16 before that layer's attention. Expected bytes are written out
// by hand from the shapes; the MiB each case reproduces come from hand-run dry runs of build 6567 (llama.cpp's
// own allocator over header-only GGUF files, scripts/llama-cpp-dry-run) and, for gpt-oss-20b, a published
// Metal load log of build 7217 (validation/serving.json).
#include <doctest/doctest.h>

#include <cstdint>

#include "fitcheck/hardware.hpp"
#include "fitcheck/local.hpp"
#include "test_support.hpp"

using namespace fitcheck;

namespace {

LocalPlacement placed(const char* config, WeightFormat format, std::int64_t context, std::int64_t ubatch,
                      std::int64_t build) {
  const LocalModel model = local_model_from_config(test::fixture_model(config), format);
  LocalRequest r = test::local_request_on("rtx-4090", 64);
  r.context = context;
  r.ubatch = ubatch;
  r.flash_attention = true;
  r.llama_cpp_build = build;
  return place_local(model, r, 99);
}

}  // namespace

TEST_CASE("local: before b9410 the f32 mask's copy, its f16 cast and the first attention share the GPU") {
  SUBCASE("Llama 3.1 8B at n_ctx 131072: the dry run prints 416.01 MiB at ubatch 512, 832.02 at 1024") {
    // f32 copy 131072 x 512 x 4 + f16 cast 131072 x 512 x 2 + two hidden states 2 x 4096 x 512 x 4 + the
    // query and the attention output 2 x (32 x 128) x 512 x 4 = 256 + 128 + 16 + 16 = 416 MiB; the output
    // layer's peak (logits 128256 x 512 x 4 + normed 4096 x 512 x 4 + the f16 mask and two hidden states
    // under them) is 402.5 MiB, below it.
    const std::int64_t ub512 = placed("meta-llama--Llama-3.1-8B.json", WeightFormat::gguf_q4_0, 131072, 512, 6567)
                                   .devices[0]
                                   .compute_buffer_bytes;
    CHECK(ub512 == 131072LL * 512 * (4 + 2) + 2 * 4096 * 512 * 4 + 2 * 4096 * 512 * 4);
    CHECK(test::mib(ub512) == doctest::Approx(416.01).epsilon(0.0001));
    const std::int64_t ub1024 = placed("meta-llama--Llama-3.1-8B.json", WeightFormat::gguf_q4_0, 131072, 1024, 6567)
                                    .devices[0]
                                    .compute_buffer_bytes;
    CHECK(ub1024 == 131072LL * 1024 * (4 + 2) + 2 * 4096 * 1024 * 4 + 2 * 4096 * 1024 * 4);
    CHECK(test::mib(ub1024) == doctest::Approx(832.02).epsilon(0.0001));
    // From b9410 the mask is an f16 input: no f32 copy on the GPU, and the output layer's peak is the larger.
    CHECK(placed("meta-llama--Llama-3.1-8B.json", WeightFormat::gguf_q4_0, 131072, 512, 9410)
              .devices[0]
              .compute_buffer_bytes == (128256LL + 4096) * 512 * 4);
  }
  SUBCASE("gpt-oss-20b: its sliding-window mask is an input too, on the host and beside the cast") {
    // The window layers keep 128 + 2048 cells padded to 256: 2304. The host holds the token embeddings
    // 2880 x 2048 x 4, the full f32 mask 131072 x 2048 x 4 and the window's 2304 x 2048 x 4: 1064.5 MiB
    // (the dry run and the b7217 Metal log print 1064.59).
    const std::int64_t host = placed("openai--gpt-oss-20b.json", WeightFormat::gguf_mxfp4_moe, 131072, 2048, 6567)
                                  .devices.back()
                                  .compute_buffer_bytes;
    CHECK(host == (2880LL + 131072 + 2304) * 2048 * 4);
    CHECK(test::mib(host) == doctest::Approx(1064.59).epsilon(0.0001));
  }
}
