// SPDX-License-Identifier: MIT
// The classic calculator's report as JSON, for the page's "from numbers, no config" mode. Keys are
// transformer_mem.py's argument names (params, num_gpus, tensor_parallel_size, ...).
#include "fitcheck/options.hpp"
#include "fitcheck/report.hpp"
#include "fitcheck/transformer_mem.hpp"
#include "support/json_writer.hpp"

#include <cstdint>

namespace fitcheck {

std::string transformer_mem_report_json(const OptionList& options) {
  OptionReader reader(options);
  TransformerMemInputs in;
  // A whole number, as `fitcheck transformer-mem --params` (the script's argparse type=int) reads it;
  // the range is validate()'s, so both front ends refuse 0 or -5 with the same message.
  in.params = static_cast<double>(reader.count("params", static_cast<std::int64_t>(in.params), INT64_MIN, INT64_MAX));
  in.num_gpus = reader.count("num_gpus", in.num_gpus, 1, 1'000'000);
  in.tensor_parallel_size = reader.count("tensor_parallel_size", in.tensor_parallel_size, 1, 4096);
  in.pipeline_parallel_size = reader.count("pipeline_parallel_size", in.pipeline_parallel_size, 1, 4096);
  in.partition_activations = reader.flag("partition_activations", in.partition_activations);
  in.zero_stage = static_cast<int>(reader.count("zero_stage", in.zero_stage, 0, 3));
  in.checkpoint_activations = reader.flag("checkpoint_activations", in.checkpoint_activations);
  in.batch_size_per_gpu = reader.count("batch_size_per_gpu", in.batch_size_per_gpu, 1, 1 << 24);
  in.hidden_size = reader.count("hidden_size", in.hidden_size, 1, 1 << 20);
  in.num_attention_heads = reader.count("num_attention_heads", in.num_attention_heads, 1, 1 << 16);
  in.sequence_length = reader.count("sequence_length", in.sequence_length, 1, std::int64_t{1} << 32);
  in.num_layers = reader.count("num_layers", in.num_layers, 1, 4096);
  in.fp32_model = reader.flag("fp32_model", in.fp32_model);
  in.fp32_grads = reader.flag("fp32_grads", in.fp32_grads);
  in.zero_allgather_bucket_size = reader.number("zero_allgather_bucket_size", in.zero_allgather_bucket_size, 0.0, 1e15);
  in.zero3_max_live_params = reader.number("zero3_max_live_params", in.zero3_max_live_params, 0.0, 1e15);
  in.misc_mem_gb = reader.number("misc_mem_gb", in.misc_mem_gb, 0.0, 1e6);
  in.infer = reader.flag("infer", in.infer);
  reader.finish();

  TransformerMemReport report;
  try {
    report = transformer_mem_report(in);
  } catch (const TransformerMemInputError& error) {
    throw OptionError(error.field(), error.what());
  }
  detail::JsonWriter writer;
  auto term = [&](const char* name, const TransformerMemTerm& t) {
    writer.begin_object();
    writer.field("name", name);
    writer.field("bytes", t.bytes);
    writer.field("gib", t.bytes / kTransformerMemBytesPerGib);
    writer.field("formula", t.formula);
    writer.end_object();
  };
  writer.begin_object();
  writer.field("infer", report.infer);
  writer.begin_array("terms");
  term("model", report.model);
  if (report.infer) {
    term("kv_cache", report.kv_cache);
  } else {
    term("gradients", report.gradients);
    term("activations", report.activations);
    term("optimizer", report.optimizer);
    term("communication", report.communication);
  }
  term("miscellaneous", report.miscellaneous);
  writer.end_array();
  writer.field("total_bytes", report.total.bytes);
  writer.field("total_gib", report.total.bytes / kTransformerMemBytesPerGib);
  writer.field("total_formula", report.total.formula);
  writer.field("note", "the classic calculator prints GiB (1024^3 bytes) labelled GB");
  writer.end_object();
  return writer.take();
}

}  // namespace fitcheck
