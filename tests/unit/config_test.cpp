// SPDX-License-Identifier: MIT
#include <doctest/doctest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "config/config_fields.hpp"
#include "config/config_other_families.hpp"
#include "config/field_names.hpp"
#include "fitcheck/config.hpp"
#include "fitcheck/params.hpp"
#include "fitcheck/report.hpp"
#include "test_support.hpp"

using namespace fitcheck;

namespace {

// The field a parse error names, or "(no error)".
std::string error_field(const std::string& text) {
  try {
    parse_hf_config(text);
  } catch (const ConfigError& error) {
    return error.field();
  }
  return "(no error)";
}

std::string error_message(const std::string& text) {
  try {
    parse_hf_config(text);
  } catch (const ConfigError& error) {
    return error.what();
  }
  return "(no error)";
}

bool mentions(const std::vector<std::string>& lines, const std::string& fragment) {
  return std::any_of(lines.begin(), lines.end(),
                     [&](const std::string& line) { return line.find(fragment) != std::string::npos; });
}

const std::string small_llama = R"({"model_type":"llama","hidden_size":64,"intermediate_size":128,
  "num_hidden_layers":2,"num_attention_heads":4,"num_key_value_heads":2,"vocab_size":1000})";

}  // namespace

TEST_CASE("a Llama config becomes a normalized description") {
  const ModelDescription model =
      parse_hf_config(test::read_file(test::fixture_configs_dir() + "/meta-llama--Llama-3.1-8B.json"));
  CHECK(model.model_type == "llama");
  CHECK(model.architecture == "LlamaForCausalLM");
  CHECK(model.hidden_size == 4096);
  CHECK(model.num_layers == 32);
  CHECK(model.vocab_size == 128256);
  CHECK_FALSE(model.tie_word_embeddings);
  REQUIRE(model.layer_kinds.size() == 1);
  CHECK(model.layer_kinds[0].layer_count == 32);
  CHECK(model.layer_kinds[0].attention.num_heads == 32);
  CHECK(model.layer_kinds[0].attention.num_kv_heads == 8);
  CHECK(model.layer_kinds[0].attention.head_dim == 128);
  CHECK(model.layer_kinds[0].mlp.gated);
}

TEST_CASE("explicit head_dim wins over hidden/heads") {
  const ModelDescription model =
      parse_hf_config(test::read_file(test::fixture_configs_dir() + "/mistralai--Devstral-Small-2507.json"));
  CHECK(model.layer_kinds[0].attention.head_dim == 128);  // 5120 / 32 would be 160
}

TEST_CASE("alternating sliding-window layers become two layer kinds") {
  const ModelDescription gemma2 =
      parse_hf_config(test::read_file(test::fixture_configs_dir() + "/Ayush2006128--mithoon-2b.json"));
  REQUIRE(gemma2.layer_kinds.size() == 2);
  CHECK(gemma2.layer_kinds[gemma2.layer_kind_of_layer[0]].attention.sliding_window == 4096);
  CHECK(gemma2.layer_kinds[gemma2.layer_kind_of_layer[1]].attention.sliding_window == 0);
  const ModelDescription gemma3 =
      parse_hf_config(test::read_file(test::fixture_configs_dir() + "/google--medgemma-27b-it.json"));
  // 62 layers, every 6th global: layers 5, 11, ..., 59 -> 10 global, 52 local.
  int global = 0;
  for (auto kind : gemma3.layer_kind_of_layer) global += gemma3.layer_kinds[kind].attention.sliding_window == 0;
  CHECK(global == 10);
  // Gemma-3's SigLIP tower and Qwen2-VL's ViT are counted apart (params_test.cpp); a wrapper whose
  // tower fitcheck does not know names it as not counted.
  CHECK(gemma3.vision.has_value());
  const ModelDescription qwen2_vl =
      parse_hf_config(test::read_file(test::fixture_configs_dir() + "/allenai--olmOCR-7B-0225-preview.json"));
  CHECK(qwen2_vl.vision.has_value());
  CHECK(qwen2_vl.not_counted.empty());
  const ModelDescription onevision =
      parse_hf_config(R"({"model_type":"llava_onevision","vision_config":{"hidden_size":1024},
    "text_config":{"model_type":"llama","hidden_size":64,"intermediate_size":128,"num_hidden_layers":2,
    "num_attention_heads":4,"vocab_size":100}})");
  CHECK_FALSE(onevision.vision.has_value());
  CHECK(mentions(onevision.not_counted, "vision"));
}

TEST_CASE("DeepSeek-V3 reads MLA, dense-first layers and the MTP depth") {
  const ModelDescription model =
      parse_hf_config(test::read_file(test::fixture_configs_dir() + "/deepseek-ai--DeepSeek-V3.json"));
  CHECK(model.multi_token_prediction_layers == 1);
  int dense = 0;
  for (auto kind : model.layer_kind_of_layer) dense += !model.layer_kinds[kind].is_moe();
  CHECK(dense == 3);
  const AttentionShape& attention = model.layer_kinds[0].attention;
  CHECK(attention.is_multi_latent());
  CHECK(attention.kv_lora_rank == 512);
  CHECK(attention.qk_rope_head_dim == 64);
}

TEST_CASE("malformed JSON names the line and column") {
  const std::string message = error_message("{\n  \"model_type\": \"llama\",\n  \"hidden_size\": 64,\n}");
  CHECK(message.find("not valid JSON") != std::string::npos);
  CHECK(message.find("line 4") != std::string::npos);
  CHECK(error_field("[1, 2]") == "");
  CHECK(error_message("[1, 2]").find("must be a JSON object") != std::string::npos);
  CHECK(error_field("") == "");
}

TEST_CASE("missing and mistyped fields are named") {
  CHECK(
      error_field(
          R"({"model_type":"llama","hidden_size":64,"num_hidden_layers":2,"num_attention_heads":4,"vocab_size":10})") ==
      "intermediate_size");
  CHECK(error_field(R"({"model_type":"llama","hidden_size":"64","intermediate_size":128,"num_hidden_layers":2,
    "num_attention_heads":4,"vocab_size":10})") == "hidden_size");
  CHECK(error_field(R"({"model_type":"llama","hidden_size":64.5,"intermediate_size":128,"num_hidden_layers":2,
    "num_attention_heads":4,"vocab_size":10})") == "hidden_size");
  CHECK(error_field(R"({"model_type":"llama","hidden_size":-64,"intermediate_size":128,"num_hidden_layers":2,
    "num_attention_heads":4,"vocab_size":10})") == "hidden_size");
  CHECK(error_field(R"({"model_type":"llama","hidden_size":64,"intermediate_size":128,"num_hidden_layers":2,
    "num_attention_heads":4,"vocab_size":10,"tie_word_embeddings":"yes"})") == "tie_word_embeddings");
  CHECK(error_field(R"({"hidden_size":64})") == "model_type");
}

TEST_CASE("shapes that cannot be built are refused") {
  // 60 is not divisible by 7 heads and there is no head_dim.
  CHECK(error_field(R"({"model_type":"llama","hidden_size":60,"intermediate_size":128,"num_hidden_layers":2,
    "num_attention_heads":7,"vocab_size":10})") == "num_attention_heads");
  // The message names the fields as the config spells them: T5's d_model and num_heads (a fuzz input).
  const std::string t5 = R"({"model_type":"t6","d_model":646,"d_ff":128,"num_layers":2,"num_heads":4,
    "vocab_size":100,"feed_forward_proj":"gated-gelgated-gelu"})";
  CHECK(error_field(t5) == "num_heads");
  CHECK(error_message(t5).find("d_model (646) is not divisible by num_heads (4)") != std::string::npos);
  // 4 query heads cannot be grouped over 3 key/value heads.
  CHECK(error_field(R"({"model_type":"llama","hidden_size":64,"intermediate_size":128,"num_hidden_layers":2,
    "num_attention_heads":4,"num_key_value_heads":3,"vocab_size":10})") == "num_key_value_heads");
  CHECK(error_field(R"({"model_type":"mixtral","hidden_size":64,"intermediate_size":128,"num_hidden_layers":2,
    "num_attention_heads":4,"vocab_size":10,"num_local_experts":8,"num_experts_per_tok":9})") == "num_experts_per_tok");
  // Absurd sizes are refused before any product can overflow.
  CHECK(error_field(R"({"model_type":"llama","hidden_size":64,"intermediate_size":128,"num_hidden_layers":2000000000,
    "num_attention_heads":4,"vocab_size":10})") == "num_hidden_layers");
}

TEST_CASE("an integral float is read as a count, and said so") {
  const ModelDescription model = parse_hf_config(R"({"model_type":"llama","hidden_size":64.0,"intermediate_size":128,
    "num_hidden_layers":2,"num_attention_heads":4,"vocab_size":1000})");
  CHECK(model.hidden_size == 64);
  CHECK(mentions(model.assumptions, "hidden_size"));
}

TEST_CASE("defaults taken are reported") {
  const ModelDescription model = parse_hf_config(small_llama);
  CHECK(mentions(model.assumptions, "tie_word_embeddings absent"));
}

TEST_CASE("an unknown model_type with standard fields is read as a generic decoder, with assumptions") {
  const ModelDescription model = parse_hf_config(R"({"model_type":"my_new_llm","hidden_size":64,"intermediate_size":128,
    "num_hidden_layers":2,"num_attention_heads":4,"vocab_size":1000})");
  CHECK(mentions(model.assumptions, "my_new_llm"));
  CHECK(mentions(model.assumptions, "generic"));
}

TEST_CASE("an unknown model_type with fields missing names all of them") {
  const std::string message = error_message(R"({"model_type":"my_new_llm","hidden_size":64})");
  CHECK(message.find("num_hidden_layers") != std::string::npos);
  CHECK(message.find("intermediate_size") != std::string::npos);
  CHECK(message.find("vocab_size") != std::string::npos);
}

TEST_CASE("each family listed outside the common set reaches its reader") {
  // read_family sends these to read_other_family (the first-view module's stand-in refuses them);
  // a name listed without a reader would end in read_other_family's logic_error, not a ConfigError
  // naming a missing field.
  for (const std::string_view type : fitcheck::detail::kOtherFamilies) {
    CAPTURE(type);
    const std::string config = R"({"model_type":")" + std::string(type) + R"("})";
    try {
      (void)fitcheck::parse_hf_config(config);
    } catch (const fitcheck::ConfigError& error) {
      CHECK(std::string(error.what()).find("no reader") == std::string::npos);
    } catch (const std::logic_error& error) {
      FAIL(error.what());
    }
  }
  CHECK(fitcheck::detail::is_other_vision_wrapper("llava"));
  CHECK_FALSE(fitcheck::detail::is_other_vision_wrapper("gemma3"));
  CHECK_FALSE(fitcheck::detail::is_other_family("llama"));
}

TEST_CASE("unsupported architectures are refused by name") {
  CHECK(error_message(R"({"model_type":"zamba","hidden_size":64})").find("shared attention") != std::string::npos);
  // The hybrid and linear-attention families, each refused by its model_type with its layers named,
  // where the generic reading would give every layer a KV cache.
  const std::pair<const char*, const char*> hybrids[] = {
      {"zamba", "Mamba"},
      {"kimi_linear", "Kimi Delta Attention"},
  };
  for (const auto& [type, layers] : hybrids) {
    const std::string config = std::string(R"({"model_type":")") + type +
                               R"(","hidden_size":64,"intermediate_size":128,"num_hidden_layers":2,
      "num_attention_heads":4,"vocab_size":100})";
    CAPTURE(type);
    CHECK(error_field(config) == "model_type");
    CHECK(error_message(config).find(layers) != std::string::npos);
  }
}

TEST_CASE("an unknown model_type with state-space or linear-attention fields is refused, the field named") {
  const std::string base = R"("model_type":"my_hybrid","hidden_size":64,"intermediate_size":128,
    "num_hidden_layers":4,"num_attention_heads":4,"vocab_size":100)";
  CHECK(error_field("{" + base + R"(,"linear_num_value_heads":8})") == "linear_num_value_heads");
  CHECK(error_field("{" + base + R"(,"mamba_d_state":16})") == "mamba_d_state");
  const std::string listed =
      "{" + base + R"(,"layer_types":["linear_attention","full_attention","linear_attention","full_attention"]})";
  CHECK(error_field(listed) == "layer_types");
  CHECK(error_message(listed).find("'linear_attention'") != std::string::npos);
  // Attention-only layer lists are still read as the generic decoder, marked as an estimate.
  const ModelDescription model = parse_hf_config(
      "{" + base +
      R"(,"sliding_window":32,"layer_types":["full_attention","sliding_attention","full_attention","sliding_attention"]})");
  CHECK_FALSE(model.guessed_fields.empty());
}

TEST_CASE("NaN and Infinity literals pass in unread fields and fail in read ones") {
  const ModelDescription model = parse_hf_config(R"({"model_type":"llama","hidden_size":64,"intermediate_size":128,
    "num_hidden_layers":2,"num_attention_heads":4,"vocab_size":1000,"time_step_limit":[0.0, Infinity]})");
  CHECK(mentions(model.assumptions, "Infinity"));
  CHECK(error_field(R"({"model_type":"llama","hidden_size":NaN,"intermediate_size":128,"num_hidden_layers":2,
    "num_attention_heads":4,"vocab_size":1000})") == "hidden_size");
}

TEST_CASE("a UTF-8 byte order mark is accepted") {
  CHECK(parse_hf_config("\xEF\xBB\xBF" + small_llama).hidden_size == 64);
}

TEST_CASE("an unknown model_type that names hidden_size n_embed is read (BLOOM's spelling)") {
  // Refused before: the generic path checked its own shorter alias list. Hand count of a generic
  // Llama-style decoder, hidden 64, 4 heads of 16, MLP 128, vocabulary 100, untied:
  //   embedding 100 x 64 = 6,400; per layer q, k, v, o 4 x 64 x 64 = 16,384, gated MLP
  //   3 x 64 x 128 = 24,576, two RMSNorms 2 x 64 = 128, so 41,088; two layers 82,176; final norm 64;
  //   lm_head 6,400. Total 6,400 + 82,176 + 64 + 6,400 = 95,040.
  const ModelDescription model = parse_hf_config(R"({"model_type":"my_new_llm","n_embed":64,"intermediate_size":128,
    "num_hidden_layers":2,"num_attention_heads":4,"vocab_size":100})");
  CHECK(model.hidden_size == 64);
  CHECK(mentions(model.assumptions, "generic"));
  CHECK(count_parameters(model).total == 95040);
  // Likewise an MLP width under T5's name, which the generic check accepted and the reader then refused.
  CHECK(count_parameters(parse_hf_config(R"({"model_type":"my_new_llm","n_embed":64,"d_ff":128,
    "num_hidden_layers":2,"num_attention_heads":4,"vocab_size":100})"))
            .total == 95040);
}

TEST_CASE("both revisions of Phi-2 read the same context length (n_positions is max_position_embeddings)") {
  const std::string dir = test::fixture_configs_dir();
  const ModelDescription legacy = parse_hf_config(test::read_file(dir + "/microsoft--phi-2-mixformer-legacy.json"));
  const ModelDescription current = parse_hf_config(test::read_file(dir + "/microsoft--phi-2.json"));
  CHECK(legacy.max_position_embeddings == 2048);   // "n_positions": 2048 in the mixformer-sequential config
  CHECK(current.max_position_embeddings == 2048);  // "max_position_embeddings": 2048
}

namespace {

// What a config reads as: the parameter report (shapes, counts, assumptions) and the stored precision.
std::string reading(const std::string& text) {
  try {
    const ModelDescription model = parse_hf_config(text);
    const StoredPrecision& stored = model.stored_precision;
    return parameter_report_json(model, count_parameters(model)) + " dtype " + stored.torch_dtype + " method " +
           stored.quant_method + " format " + stored.quant_format + " bits " + std::to_string(stored.quant_bits) +
           " group " + std::to_string(stored.quant_group_size);
  } catch (const ConfigError& error) {
    return std::string("refused: ") + error.what();
  }
}

}  // namespace

TEST_CASE("every alias in the field table reads as its field") {
  // An unknown model_type (the generic reader) holding every aliased field, each at a value that
  // differs from what its absence gives, so that an alias the readers skipped would show.
  const nlohmann::ordered_json base = nlohmann::ordered_json::parse(R"({"model_type":"my_new_llm",
    "hidden_size":64,"num_hidden_layers":2,"num_attention_heads":4,"num_key_value_heads":2,"head_dim":32,
    "intermediate_size":96,"vocab_size":100,"max_position_embeddings":512,"attention_bias":true,
    "num_local_experts":4,"num_experts_per_tok":2,"torch_dtype":"float32",
    "quantization_config":{"quant_method":"gptq","fmt":"e4m3","bits":4,"group_size":32}})");
  const std::string canonical = reading(base.dump());
  REQUIRE(canonical.rfind("refused", 0) != 0);
  int aliases_walked = 0;
  for (const detail::FieldNames& row : detail::field_table) {
    if (row.aliases[0].empty()) continue;
    const std::string name(row.name);
    INFO("field ", name);
    // Aliased fields live at the top level or in quantization_config; a new scope needs a case here.
    REQUIRE((row.scope == detail::FieldScope::model || row.scope == detail::FieldScope::quantization_config));
    nlohmann::ordered_json without = base;
    nlohmann::ordered_json& object = row.scope == detail::FieldScope::model ? without : without["quantization_config"];
    REQUIRE_MESSAGE(object.contains(name), "the base config of this test lacks the aliased field " << name);
    const nlohmann::ordered_json value = object[name];
    object.erase(name);
    CHECK(reading(without.dump()) != canonical);  // the field matters, so the comparison below can fail
    for (const std::string_view alias : row.aliases) {
      if (alias.empty()) break;
      INFO("alias ", std::string(alias));
      nlohmann::ordered_json renamed = without;
      (row.scope == detail::FieldScope::model ? renamed : renamed["quantization_config"])[std::string(alias)] = value;
      CHECK(reading(renamed.dump()) == canonical);
      ++aliases_walked;
    }
  }
  CHECK(aliases_walked >= 20);
}

TEST_CASE("the list of read keys (config-fields) is the field table") {
  const auto listed = nlohmann::json::parse(config_fields_json())["fields"];
  REQUIRE(listed.size() == std::size(detail::field_table));
  const auto row = [&](const std::string& in, const std::string& name) {
    for (const auto& entry : listed)
      if (entry["in"] == in && entry["name"] == name) return entry;
    return nlohmann::json();
  };
  CHECK(row("model", "hidden_size")["aliases"] == nlohmann::json({"n_embd", "n_embed", "d_model"}));
  CHECK(row("model", "torch_dtype")["aliases"] == nlohmann::json({"dtype"}));  // TinyLlama's config says dtype
  CHECK(row("model", "text_config")["holds"] == "model");
  CHECK(row("model", "vision_config")["holds"] == "vision_config");  // Gemma-3's SigLIP tower is read
  CHECK(row("model", "audio_config")["holds"] == "audio_config");    // Gemma 3n's USM tower is read
  CHECK(row("vision_config", "patch_size")["aliases"] == nlohmann::json::array());
  CHECK(row("model", "quantization_config")["holds"] == "quantization_config");
  CHECK(row("quantization_config", "bits")["aliases"] == nlohmann::json({"w_bit"}));
  CHECK(row("attn_config", "kv_n_heads")["aliases"] == nlohmann::json::array());
  CHECK_FALSE(row("model", "hidden_size").contains("holds"));
  CHECK(row("model", "rope_theta").is_null());  // read by no reader of the core

  const test::CommandResult json = test::run_cli("config-fields --json");
  CHECK(json.exit_status == 0);
  CHECK(json.out == config_fields_json() + "\n");
  const test::CommandResult text = test::run_cli("config-fields");
  CHECK(text.exit_status == 0);
  CHECK(text.out.find("hidden_size") != std::string::npos);
  CHECK(text.out.find("n_embd, n_embed, d_model") != std::string::npos);
  CHECK(text.out.find("inside quantization_config:") != std::string::npos);
}

TEST_CASE("a field read from an object it does not belong to is a programming error") {
  const auto document = detail::parse_json_document(R"({"quantization_config":{"bits":4}})");
  const detail::ConfigFields root = detail::ConfigFields::root(document);
  const auto quantization = root.object("quantization_config");
  REQUIRE(quantization.has_value());
  CHECK(quantization->optional_count("quantization_config.bits", 1, 64) == 4);
  CHECK_THROWS_AS((void)quantization->has("hidden_size"), std::logic_error);
  CHECK_THROWS_AS((void)root.has("quantization_config.bits"), std::logic_error);
}

TEST_CASE("Gemma-3 wrappers: text_config fields left out take Gemma3TextConfig's defaults, each named") {
  const ModelDescription small =
      parse_hf_config(test::read_file(test::fixture_configs_dir() + "/google--gemma-3-4b-it.json"));
  // google/gemma-3-4b-it names hidden 2560, FFN 10240 and 34 layers only. By hand, with the class's
  // vocabulary 262208, 8 heads of 256, 4 KV heads, q/k norms of 256 and tied embeddings:
  //   per layer q 2560 x 2048 + k, v 2560 x 1024 + o 2048 x 2560 + norms 512 + 3 x 2560 x 10240
  //   + 4 x 2560 = 94,382,592; x 34 + final norm 2560 + embedding 262208 x 2560 = 3,880,263,168.
  CHECK(count_parameters(small).total == 3'880'263'168);
  CHECK(small.vocab_size == 262'208);
  const AttentionShape& attention = small.layer_kinds[small.layer_kind_of_layer[0]].attention;
  CHECK(attention.num_heads == 8);
  CHECK(attention.num_kv_heads == 4);
  CHECK(attention.head_dim == 256);
  for (const char* field : {"text_config.vocab_size = 262208", "text_config.num_attention_heads = 8",
                            "text_config.num_key_value_heads = 4", "text_config.head_dim = 256"}) {
    CAPTURE(field);
    CHECK(mentions(small.assumptions, field));
  }
  // gemma-3-27b-it gives its heads (32 of 128, 16 KV): no default is taken for them.
  const ModelDescription large =
      parse_hf_config(test::read_file(test::fixture_configs_dir() + "/google--gemma-3-27b-it.json"));
  CHECK(large.layer_kinds[large.layer_kind_of_layer[0]].attention.num_heads == 32);
  CHECK_FALSE(mentions(large.assumptions, "text_config.num_attention_heads"));
  CHECK(mentions(large.assumptions, "text_config.vocab_size = 262208"));
}
