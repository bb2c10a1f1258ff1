// SPDX-License-Identifier: MIT
// `fitcheck transformer-mem` against the classic transformer_mem.py (EleutherAI cookbook,
// calc/calc_transformer_mem.py). Every expected value below was recorded by running that script
// under Python 3.11 with the command line in the comment above it; the report and argparse's
// error messages must match it exactly.
#include <doctest/doctest.h>

#include <cstdio>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "../../cli/transformer_mem_command.hpp"
#include "fitcheck/transformer_mem.hpp"

using fitcheck::cli::run_transformer_mem;

namespace {

// Printed by every run of the script, before it parses its arguments.
const char* const kExamples =
    "\nExample with pythia 6.9B: python transformer_mem.py --num-layers=32 --sequence-length=2048 "
    "--num-attention-heads=32 --hidden-size=4096 --batch-size-per-gpu=8 --checkpoint-activations "
    "--zero-stage=1 --partition-activations --pipeline-parallel-size=1 --tensor-parallel-size=2 "
    "--num-gpus=128 --params=6900000000\n"
    "Example with pythia 12B: python transformer_mem.py --num-layers=36 --sequence-length=2048 "
    "--num-attention-heads=40 --hidden-size=5120 --batch-size-per-gpu=8 --checkpoint-activations "
    "--zero-stage=1 --partition-activations --pipeline-parallel-size=1 --tensor-parallel-size=4 "
    "--num-gpus=256 --params=11849420800\n"
    "Example with default 20B: python transformer_mem.py --num-layers=44 --sequence-length=2048 "
    "--num-attention-heads=64 --hidden-size=6144 --batch-size-per-gpu=1 --checkpoint-activations "
    "--zero-stage=1 --partition-activations --pipeline-parallel-size=1 --tensor-parallel-size=1 "
    "--num-gpus=1 --params=20000000000\n\n";

const char* const kConfigKeys[] = {"params",
                                   "num_gpus",
                                   "tensor_parallel_size",
                                   "pipeline_parallel_size",
                                   "partition_activations",
                                   "zero_stage",
                                   "checkpoint_activations",
                                   "batch_size_per_gpu",
                                   "hidden_size",
                                   "num_attention_heads",
                                   "sequence_length",
                                   "num_layers",
                                   "fp32_model",
                                   "fp32_grads",
                                   "zero_allgather_bucket_size",
                                   "zero3_max_live_params",
                                   "misc_mem_gb",
                                   "infer"};

struct ReportCase {
  const char* command;  // words separated by single spaces
  const char* params;   // the "Number of Parameters:" text
  const char* gib;      // the "... GB" figures in print order
  const char* config;   // the values of the printed configuration dict, in order
};

const ReportCase kReportCases[] = {
    // python3 transformer_mem.py --num-layers=32 --sequence-length=2048 --num-attention-heads=32 --hidden-size=4096
    // --batch-size-per-gpu=8 --checkpoint-activations --zero-stage=1 --partition-activations --pipeline-parallel-size=1
    // --tensor-parallel-size=2 --num-gpus=128 --params=6900000000
    {"--num-layers=32 --sequence-length=2048 --num-attention-heads=32 --hidden-size=4096 --batch-size-per-gpu=8 "
     "--checkpoint-activations --zero-stage=1 --partition-activations --pipeline-parallel-size=1 "
     "--tensor-parallel-size=2 --num-gpus=128 --params=6900000000",
     "6.9 B", "6.43 12.85 22.00 0.60 0.93 0.00 42.81",
     "6900000000, 128, 2, 1, True, 1, True, 8, 4096, 32, 2048, 32, False, False, 500000000.0, 1000000000.0, 0, False"},
    // python3 transformer_mem.py --num-layers=32 --sequence-length=2048 --num-attention-heads=32 --hidden-size=4096
    // --batch-size-per-gpu=8 --checkpoint-activations --zero-stage=1 --partition-activations --pipeline-parallel-size=1
    // --tensor-parallel-size=2 --num-gpus=128 --params=6900000000 --infer
    {"--num-layers=32 --sequence-length=2048 --num-attention-heads=32 --hidden-size=4096 --batch-size-per-gpu=8 "
     "--checkpoint-activations --zero-stage=1 --partition-activations --pipeline-parallel-size=1 "
     "--tensor-parallel-size=2 --num-gpus=128 --params=6900000000 --infer",
     "6.9 B", "6.43 1.00 0.00 7.43",
     "6900000000, 128, 2, 1, True, 1, True, 8, 4096, 32, 2048, 32, False, False, 500000000.0, 1000000000.0, 0, True"},
    // python3 transformer_mem.py --num-layers=36 --sequence-length=2048 --num-attention-heads=40 --hidden-size=5120
    // --batch-size-per-gpu=8 --checkpoint-activations --zero-stage=1 --partition-activations --pipeline-parallel-size=1
    // --tensor-parallel-size=4 --num-gpus=256 --params=11849420800
    {"--num-layers=36 --sequence-length=2048 --num-attention-heads=40 --hidden-size=5120 --batch-size-per-gpu=8 "
     "--checkpoint-activations --zero-stage=1 --partition-activations --pipeline-parallel-size=1 "
     "--tensor-parallel-size=4 --num-gpus=256 --params=11849420800",
     "11.85 B", "5.52 22.07 11.25 0.52 0.93 0.00 40.29",
     "11849420800, 256, 4, 1, True, 1, True, 8, 5120, 40, 2048, 36, False, False, 500000000.0, 1000000000.0, 0, False"},
    // python3 transformer_mem.py --num-layers=36 --sequence-length=2048 --num-attention-heads=40 --hidden-size=5120
    // --batch-size-per-gpu=8 --checkpoint-activations --zero-stage=1 --partition-activations --pipeline-parallel-size=1
    // --tensor-parallel-size=4 --num-gpus=256 --params=11849420800 --infer
    {"--num-layers=36 --sequence-length=2048 --num-attention-heads=40 --hidden-size=5120 --batch-size-per-gpu=8 "
     "--checkpoint-activations --zero-stage=1 --partition-activations --pipeline-parallel-size=1 "
     "--tensor-parallel-size=4 --num-gpus=256 --params=11849420800 --infer",
     "11.85 B", "5.52 1.41 0.00 6.92",
     "11849420800, 256, 4, 1, True, 1, True, 8, 5120, 40, 2048, 36, False, False, 500000000.0, 1000000000.0, 0, True"},
    // python3 transformer_mem.py --num-layers=44 --sequence-length=2048 --num-attention-heads=64 --hidden-size=6144
    // --batch-size-per-gpu=1 --checkpoint-activations --zero-stage=1 --partition-activations --pipeline-parallel-size=1
    // --tensor-parallel-size=1 --num-gpus=1 --params=20000000000
    {"--num-layers=44 --sequence-length=2048 --num-attention-heads=64 --hidden-size=6144 --batch-size-per-gpu=1 "
     "--checkpoint-activations --zero-stage=1 --partition-activations --pipeline-parallel-size=1 "
     "--tensor-parallel-size=1 --num-gpus=1 --params=20000000000",
     "20.0 B", "37.25 37.25 17.53 223.52 0.93 0.00 316.49",
     "20000000000, 1, 1, 1, True, 1, True, 1, 6144, 64, 2048, 44, False, False, 500000000.0, 1000000000.0, 0, False"},
    // python3 transformer_mem.py --num-layers=44 --sequence-length=2048 --num-attention-heads=64 --hidden-size=6144
    // --batch-size-per-gpu=1 --checkpoint-activations --zero-stage=1 --partition-activations --pipeline-parallel-size=1
    // --tensor-parallel-size=1 --num-gpus=1 --params=20000000000 --infer
    {"--num-layers=44 --sequence-length=2048 --num-attention-heads=64 --hidden-size=6144 --batch-size-per-gpu=1 "
     "--checkpoint-activations --zero-stage=1 --partition-activations --pipeline-parallel-size=1 "
     "--tensor-parallel-size=1 --num-gpus=1 --params=20000000000 --infer",
     "20.0 B", "37.25 2.06 0.00 39.32",
     "20000000000, 1, 1, 1, True, 1, True, 1, 6144, 64, 2048, 44, False, False, 500000000.0, 1000000000.0, 0, True"},
    // python3 transformer_mem.py
    {"", "20.0 B", "37.25 37.25 72.53 223.52 0.93 0.00 371.49",
     "20000000000, 1, 1, 1, False, 1, False, 1, 6144, 64, 2048, 44, False, False, 500000000.0, 1000000000.0, 0, False"},
    // python3 transformer_mem.py --infer
    {"--infer", "20.0 B", "37.25 2.06 0.00 39.32",
     "20000000000, 1, 1, 1, False, 1, False, 1, 6144, 64, 2048, 44, False, False, 500000000.0, 1000000000.0, 0, True"},
    // python3 transformer_mem.py -z 0 --num-gpus 8
    {"-z 0 --num-gpus 8", "20.0 B", "37.25 37.25 72.53 223.52 0.00 0.00 370.55",
     "20000000000, 8, 1, 1, False, 0, False, 1, 6144, 64, 2048, 44, False, False, 500000000.0, 1000000000.0, 0, False"},
    // python3 transformer_mem.py -z 0 --num-gpus 8 -ca
    {"-z 0 --num-gpus 8 -ca", "20.0 B", "37.25 37.25 17.53 223.52 0.00 0.00 315.55",
     "20000000000, 8, 1, 1, False, 0, True, 1, 6144, 64, 2048, 44, False, False, 500000000.0, 1000000000.0, 0, False"},
    // python3 transformer_mem.py -z 1 --num-gpus 8
    {"-z 1 --num-gpus 8", "20.0 B", "37.25 37.25 72.53 27.94 0.93 0.00 175.91",
     "20000000000, 8, 1, 1, False, 1, False, 1, 6144, 64, 2048, 44, False, False, 500000000.0, 1000000000.0, 0, False"},
    // python3 transformer_mem.py -z 1 --num-gpus 8 -ca
    {"-z 1 --num-gpus 8 -ca", "20.0 B", "37.25 37.25 17.53 27.94 0.93 0.00 120.91",
     "20000000000, 8, 1, 1, False, 1, True, 1, 6144, 64, 2048, 44, False, False, 500000000.0, 1000000000.0, 0, False"},
    // python3 transformer_mem.py -z 2 --num-gpus 8
    {"-z 2 --num-gpus 8", "20.0 B", "37.25 4.66 72.53 27.94 0.93 0.00 143.31",
     "20000000000, 8, 1, 1, False, 2, False, 1, 6144, 64, 2048, 44, False, False, 500000000.0, 1000000000.0, 0, False"},
    // python3 transformer_mem.py -z 2 --num-gpus 8 -ca
    {"-z 2 --num-gpus 8 -ca", "20.0 B", "37.25 4.66 17.53 27.94 0.93 0.00 88.31",
     "20000000000, 8, 1, 1, False, 2, True, 1, 6144, 64, 2048, 44, False, False, 500000000.0, 1000000000.0, 0, False"},
    // python3 transformer_mem.py -z 3 --num-gpus 8
    {"-z 3 --num-gpus 8", "20.0 B", "4.66 4.66 72.53 27.94 2.79 0.00 112.58",
     "20000000000, 8, 1, 1, False, 3, False, 1, 6144, 64, 2048, 44, False, False, 500000000.0, 1000000000.0, 0, False"},
    // python3 transformer_mem.py -z 3 --num-gpus 8 -ca
    {"-z 3 --num-gpus 8 -ca", "20.0 B", "4.66 4.66 17.53 27.94 2.79 0.00 57.58",
     "20000000000, 8, 1, 1, False, 3, True, 1, 6144, 64, 2048, 44, False, False, 500000000.0, 1000000000.0, 0, False"},
    // python3 transformer_mem.py -z 3 --num-gpus 8 --infer
    {"-z 3 --num-gpus 8 --infer", "20.0 B", "4.66 2.06 0.00 6.72",
     "20000000000, 8, 1, 1, False, 3, False, 1, 6144, 64, 2048, 44, False, False, 500000000.0, 1000000000.0, 0, True"},
    // python3 transformer_mem.py -tp 4 --num-gpus 4
    {"-tp 4 --num-gpus 4", "20.0 B", "9.31 37.25 22.00 55.88 0.93 0.00 125.38",
     "20000000000, 4, 4, 1, False, 1, False, 1, 6144, 64, 2048, 44, False, False, 500000000.0, 1000000000.0, 0, False"},
    // python3 transformer_mem.py -tp 4 --num-gpus 4 -pa
    {"-tp 4 --num-gpus 4 -pa", "20.0 B", "9.31 37.25 5.50 55.88 0.93 0.00 108.88",
     "20000000000, 4, 4, 1, True, 1, False, 1, 6144, 64, 2048, 44, False, False, 500000000.0, 1000000000.0, 0, False"},
    // python3 transformer_mem.py -tp 4 --num-gpus 4 -pa -ca
    {"-tp 4 --num-gpus 4 -pa -ca", "20.0 B", "9.31 37.25 2.06 55.88 0.93 0.00 105.44",
     "20000000000, 4, 4, 1, True, 1, True, 1, 6144, 64, 2048, 44, False, False, 500000000.0, 1000000000.0, 0, False"},
    // python3 transformer_mem.py -pp 4 --num-gpus 4
    {"-pp 4 --num-gpus 4", "20.0 B", "9.31 9.31 72.53 55.88 0.93 0.00 147.97",
     "20000000000, 4, 1, 4, False, 1, False, 1, 6144, 64, 2048, 44, False, False, 500000000.0, 1000000000.0, 0, False"},
    // python3 transformer_mem.py -tp 2 -pp 2 --num-gpus 16 -z 3
    {"-tp 2 -pp 2 --num-gpus 16 -z 3", "20.0 B", "0.58 1.16 38.84 13.97 2.79 0.00 57.35",
     "20000000000, 16, 2, 2, False, 3, False, 1, 6144, 64, 2048, 44, False, False, 500000000.0, 1000000000.0, 0, "
     "False"},
    // python3 transformer_mem.py -tp 8 -pp 4 --num-gpus 64 -z 2 -ca -pa
    {"-tp 8 -pp 4 --num-gpus 64 -z 2 -ca -pa", "20.0 B", "1.16 0.15 0.84 3.49 0.93 0.00 6.57",
     "20000000000, 64, 8, 4, True, 2, True, 1, 6144, 64, 2048, 44, False, False, 500000000.0, 1000000000.0, 0, False"},
    // python3 transformer_mem.py --fp32-model
    {"--fp32-model", "20.0 B", "74.51 37.25 72.53 149.01 1.86 0.00 335.16",
     "20000000000, 1, 1, 1, False, 1, False, 1, 6144, 64, 2048, 44, True, False, 500000000.0, 1000000000.0, 0, False"},
    // python3 transformer_mem.py --fp32-model -z 3 --num-gpus 4
    {"--fp32-model -z 3 --num-gpus 4", "20.0 B", "18.63 9.31 72.53 37.25 5.59 0.00 143.31",
     "20000000000, 4, 1, 1, False, 3, False, 1, 6144, 64, 2048, 44, True, False, 500000000.0, 1000000000.0, 0, False"},
    // python3 transformer_mem.py --fp32-model --infer
    {"--fp32-model --infer", "20.0 B", "74.51 4.12 0.00 78.63",
     "20000000000, 1, 1, 1, False, 1, False, 1, 6144, 64, 2048, 44, True, False, 500000000.0, 1000000000.0, 0, True"},
    // python3 transformer_mem.py --fp32-grads
    {"--fp32-grads", "20.0 B", "37.25 74.51 72.53 223.52 0.93 0.00 408.74",
     "20000000000, 1, 1, 1, False, 1, False, 1, 6144, 64, 2048, 44, False, True, 500000000.0, 1000000000.0, 0, False"},
    // python3 transformer_mem.py --fp32-grads -z 2 --num-gpus 8
    {"--fp32-grads -z 2 --num-gpus 8", "20.0 B", "37.25 9.31 72.53 27.94 0.93 0.00 147.97",
     "20000000000, 8, 1, 1, False, 2, False, 1, 6144, 64, 2048, 44, False, True, 500000000.0, 1000000000.0, 0, False"},
    // python3 transformer_mem.py --misc-mem-gb 5
    {"--misc-mem-gb 5", "20.0 B", "37.25 37.25 72.53 223.52 0.93 5.00 376.49",
     "20000000000, 1, 1, 1, False, 1, False, 1, 6144, 64, 2048, 44, False, False, 500000000.0, 1000000000.0, 5, False"},
    // python3 transformer_mem.py --misc-mem-gb 5 --infer
    {"--misc-mem-gb 5 --infer", "20.0 B", "37.25 2.06 5.00 44.32",
     "20000000000, 1, 1, 1, False, 1, False, 1, 6144, 64, 2048, 44, False, False, 500000000.0, 1000000000.0, 5, True"},
    // python3 transformer_mem.py -zbs 200000000 -zmlp 300000000 -z 3
    {"-zbs 200000000 -zmlp 300000000 -z 3", "20.0 B", "37.25 37.25 72.53 223.52 0.93 0.00 371.49",
     "20000000000, 1, 1, 1, False, 3, False, 1, 6144, 64, 2048, 44, False, False, 200000000, 300000000, 0, False"},
    // python3 transformer_mem.py -zmlp 5 -z 1
    {"-zmlp 5 -z 1", "20.0 B", "37.25 37.25 72.53 223.52 0.93 0.00 371.49",
     "20000000000, 1, 1, 1, False, 1, False, 1, 6144, 64, 2048, 44, False, False, 500000000.0, 5, 0, False"},
    // python3 transformer_mem.py -z 0 -zbs 123
    {"-z 0 -zbs 123", "20.0 B", "37.25 37.25 72.53 223.52 0.00 0.00 370.55",
     "20000000000, 1, 1, 1, False, 0, False, 1, 6144, 64, 2048, 44, False, False, 123, 1000000000.0, 0, False"},
    // python3 transformer_mem.py --infer -b 8
    {"--infer -b 8", "20.0 B", "37.25 2.06 0.00 39.32",
     "20000000000, 1, 1, 1, False, 1, False, 8, 6144, 64, 2048, 44, False, False, 500000000.0, 1000000000.0, 0, True"},
    // python3 transformer_mem.py -b 4 -s 4096 -a 40 -hs 5120 -l 36 -p 13000000000
    {"-b 4 -s 4096 -a 40 -hs 5120 -l 36 -p 13000000000", "13.0 B", "24.21 24.21 545.62 145.29 0.93 0.00 740.27",
     "13000000000, 1, 1, 1, False, 1, False, 4, 5120, 40, 4096, 36, False, False, 500000000.0, 1000000000.0, 0, False"},
    // python3 transformer_mem.py -p 999999999
    {"-p 999999999", "1000.0 M", "1.86 1.86 72.53 11.18 0.93 0.00 88.36",
     "999999999, 1, 1, 1, False, 1, False, 1, 6144, 64, 2048, 44, False, False, 500000000.0, 1000000000.0, 0, False"},
    // python3 transformer_mem.py -p 1
    {"-p 1", "1.0 ", "0.00 0.00 72.53 0.00 0.93 0.00 73.46",
     "1, 1, 1, 1, False, 1, False, 1, 6144, 64, 2048, 44, False, False, 500000000.0, 1000000000.0, 0, False"},
    // python3 transformer_mem.py -p 6900000000 -l 32 -hs 4096 -a 32 -s 2048
    {"-p 6900000000 -l 32 -hs 4096 -a 32 -s 2048", "6.9 B", "12.85 12.85 28.50 77.11 0.93 0.00 132.25",
     "6900000000, 1, 1, 1, False, 1, False, 1, 4096, 32, 2048, 32, False, False, 500000000.0, 1000000000.0, 0, False"},
    // python3 transformer_mem.py --hidden 4096 --num-g=8 --seq=1024
    {"--hidden 4096 --num-g=8 --seq=1024", "20.0 B", "37.25 37.25 19.59 27.94 0.93 0.00 122.97",
     "20000000000, 8, 1, 1, False, 1, False, 1, 4096, 64, 1024, 44, False, False, 500000000.0, 1000000000.0, 0, False"},
    // python3 transformer_mem.py -tp=2 -pp=2 -z=2 --num-gpus=8
    {"-tp=2 -pp=2 -z=2 --num-gpus=8", "20.0 B", "9.31 2.33 38.84 27.94 0.93 0.00 79.36",
     "20000000000, 8, 2, 2, False, 2, False, 1, 6144, 64, 2048, 44, False, False, 500000000.0, 1000000000.0, 0, False"},
    // python3 transformer_mem.py -t 2 -c
    {"-t 2 -c", "20.0 B", "18.63 37.25 11.34 223.52 0.93 0.00 291.67",
     "20000000000, 1, 2, 1, False, 1, True, 1, 6144, 64, 2048, 44, False, False, 500000000.0, 1000000000.0, 0, False"},
    // python3 transformer_mem.py -p6900000000 -z3 -b8
    {"-p6900000000 -z3 -b8", "6.9 B", "12.85 12.85 580.25 77.11 2.79 0.00 685.86",
     "6900000000, 1, 1, 1, False, 3, False, 8, 6144, 64, 2048, 44, False, False, 500000000.0, 1000000000.0, 0, False"},
    // python3 transformer_mem.py --params=0020000000000 --num-layers 1_0
    {"--params=0020000000000 --num-layers 1_0", "20.0 B", "37.25 37.25 16.48 223.52 0.93 0.00 315.44",
     "20000000000, 1, 1, 1, False, 1, False, 1, 6144, 64, 2048, 10, False, False, 500000000.0, 1000000000.0, 0, False"},
    // python3 transformer_mem.py -pa=p5000 --check
    {"-pa=p5000 --check", "5.0 K", "0.00 0.00 17.53 0.00 0.93 0.00 18.46",
     "5000, 1, 1, 1, True, 1, True, 1, 6144, 64, 2048, 44, False, False, 500000000.0, 1000000000.0, 0, False"},
    // python3 transformer_mem.py --para 1300000000 --parti -tp 2
    {"--para 1300000000 --parti -tp 2", "1.3 B", "1.21 2.42 19.42 14.53 0.93 0.00 38.51",
     "1300000000, 1, 2, 1, True, 1, False, 1, 6144, 64, 2048, 44, False, False, 500000000.0, 1000000000.0, 0, False"},
    // python3 transformer_mem.py -zbs=1000 -zmlp=2000 -z 3 --num-gpus 2
    {"-zbs=1000 -zmlp=2000 -z 3 --num-gpus 2", "20.0 B", "18.63 18.63 72.53 111.76 0.00 0.00 221.54",
     "20000000000, 2, 1, 1, False, 3, False, 1, 6144, 64, 2048, 44, False, False, 1000, 2000, 0, False"},
    // python3 transformer_mem.py --checkpoint-activations --partition-activations --fp32-model --fp32-grads --infer -a
    // 8
    {"--checkpoint-activations --partition-activations --fp32-model --fp32-grads --infer -a 8", "20.0 B",
     "74.51 4.12 0.00 78.63",
     "20000000000, 1, 1, 1, True, 1, True, 1, 6144, 8, 2048, 44, True, True, 500000000.0, 1000000000.0, 0, True"},
    // python3 transformer_mem.py --num-attention-heads 16 --hidden-size 2048 --sequence-length 8192
    {"--num-attention-heads 16 --hidden-size 2048 --sequence-length 8192", "20.0 B",
     "37.25 37.25 243.38 223.52 0.93 0.00 542.33",
     "20000000000, 1, 1, 1, False, 1, False, 1, 2048, 16, 8192, 44, False, False, 500000000.0, 1000000000.0, 0, False"},
};

struct ErrorCase {
  const char* command;
  const char* message;  // after "error: "
};

const ErrorCase kErrorCases[] = {
    // python3 transformer_mem.py --foo
    {"--foo", "unrecognized arguments: --foo"},
    // python3 transformer_mem.py --num-layers 3.5
    {"--num-layers 3.5", "argument --num-layers/-l: invalid int value: '3.5'"},
    // python3 transformer_mem.py -z 4
    {"-z 4", "argument --zero-stage/-z: invalid choice: 4 (choose from 0, 1, 2, 3)"},
    // python3 transformer_mem.py --params 6.9e9
    {"--params 6.9e9", "argument --params/-p: invalid int value: '6.9e9'"},
    // python3 transformer_mem.py --zero 1
    {"--zero 1",
     "ambiguous option: --zero could match --zero-stage, --zero-allgather-bucket-size, --zero3-max-live-params"},
    // python3 transformer_mem.py --params
    {"--params", "argument --params/-p: expected one argument"},
    // python3 transformer_mem.py --infer=1
    {"--infer=1", "argument --infer: ignored explicit argument '1'"},
    // python3 transformer_mem.py -tp2
    {"-tp2", "unrecognized arguments: -tp2"},
    // python3 transformer_mem.py foo
    {"foo", "unrecognized arguments: foo"},
    // python3 transformer_mem.py --zbs 5e8
    {"--zbs 5e8", "unrecognized arguments: --zbs 5e8"},
    // python3 transformer_mem.py --misc-mem-gb 1.5
    {"--misc-mem-gb 1.5", "argument --misc-mem-gb: invalid int value: '1.5'"},
    // python3 transformer_mem.py --par=5
    {"--par=5", "ambiguous option: --par=5 could match --params, --partition-activations"},
    // python3 transformer_mem.py -zb 5
    {"-zb 5", "ambiguous option: -zb could match -z, -zbs"},
    // python3 transformer_mem.py -pa=1
    {"-pa=1", "argument --partition-activations/-pa: ignored explicit argument '1'"},
    // python3 transformer_mem.py --params --infer
    {"--params --infer", "argument --params/-p: expected one argument"},
    // python3 transformer_mem.py -z -1
    {"-z -1", "argument --zero-stage/-z: invalid choice: -1 (choose from 0, 1, 2, 3)"},
    // python3 transformer_mem.py --num-gpus 8 -- -z 3
    {"--num-gpus 8 -- -z 3", "unrecognized arguments: -- -z 3"},
    // python3 transformer_mem.py -ca=
    {"-ca=", "argument --checkpoint-activations/-ca: ignored explicit argument ''"},
    // python3 transformer_mem.py --h
    {"--h", "ambiguous option: --h could match --help, --hidden-size"},
};

std::vector<std::string> split(const std::string& text, const std::string& separator) {
  std::vector<std::string> parts;
  if (text.empty()) return parts;
  std::size_t begin = 0;
  for (std::size_t end; (end = text.find(separator, begin)) != std::string::npos; begin = end + separator.size()) {
    parts.push_back(text.substr(begin, end - begin));
  }
  parts.push_back(text.substr(begin));
  return parts;
}

std::string expected_report(const ReportCase& c) {
  std::string config;
  const auto values = split(c.config, ", ");
  REQUIRE(values.size() == 18);
  for (std::size_t i = 0; i < values.size(); ++i) {
    config += std::string(i ? ", " : "") + "'" + kConfigKeys[i] + "': " + values[i];
  }
  const auto gib = split(c.gib, " ");
  const bool infer = gib.size() == 4;
  const std::vector<std::string> labels =
      infer ? std::vector<std::string>{"Model Memory", "KV Cache Memory", "Miscellaneous Memory",
                                       "Total Memory Required for Inference"}
            : std::vector<std::string>{"Model Memory",
                                       "Gradient Memory",
                                       "Activation Memory",
                                       "Optimizer Memory",
                                       "Communication Memory",
                                       "Miscellaneous Memory",
                                       "Total Memory Required for Training"};
  REQUIRE(gib.size() == labels.size());
  std::string text = std::string(kExamples) + "Calculating memory with training configuration: {" + config +
                     "}\n\nNumber of Parameters: " + c.params + "\n";
  for (std::size_t i = 0; i < gib.size(); ++i) text += labels[i] + ": " + gib[i] + " GB\n";
  return text;
}

struct Run {
  int status = 0;
  std::string out, err;
};

Run run(const std::vector<std::string>& args) {
  Run r;
  r.status = run_transformer_mem(args, r.out, r.err);
  return r;
}

std::string gib_text(double bytes) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.2f", bytes / fitcheck::kTransformerMemBytesPerGib);
  return buffer;
}

}  // namespace

TEST_CASE("transformer-mem prints the classic script's report, line for line") {
  for (const ReportCase& c : kReportCases) {
    INFO("transformer-mem " << c.command);
    const Run r = run(split(c.command, " "));
    CHECK(r.status == 0);
    CHECK(r.err.empty());
    CHECK(r.out == expected_report(c));
  }
}

TEST_CASE("transformer-mem reads values the way Python's int() does") {
  // python3 transformer_mem.py --params ' 7000000000 ' --i
  const ReportCase padded{"", "7.0 B", "13.04 2.06 0.00 15.10",
                          "7000000000, 1, 1, 1, False, 1, False, 1, 6144, 64, 2048, 44, False, False, "
                          "500000000.0, 1000000000.0, 0, True"};
  const Run r = run({"--params", " 7000000000 ", "--i"});
  CHECK(r.status == 0);
  CHECK(r.out == expected_report(padded));
}

TEST_CASE("transformer-mem rejects bad flags with argparse's message and status 2") {
  for (const ErrorCase& c : kErrorCases) {
    INFO("transformer-mem " << c.command);
    const Run r = run(split(c.command, " "));
    CHECK(r.status == 2);
    CHECK(r.out == kExamples);  // the script prints its examples before parsing
    CHECK(r.err == std::string("fitcheck transformer-mem: error: ") + c.message + "\n");
  }
  // python3 transformer_mem.py -b ""
  CHECK(run({"-b", ""}).err ==
        "fitcheck transformer-mem: error: argument --batch-size-per-gpu/-b: invalid int value: ''\n");
}

TEST_CASE("transformer-mem refuses values the script crashes on or turns into nonsense") {
  // The script: ZeroDivisionError for --num-gpus 0 and -tp 0, ValueError (math domain) for
  // --params -5, a report with negative or zero terms for the others.
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--num-gpus", "0"}, "argument --num-gpus: must be at least 1 (got 0)"},
      {{"-tp", "0"}, "argument --tensor-parallel-size/-tp: must be at least 1 (got 0)"},
      {{"-pp=-2"}, "argument --pipeline-parallel-size/-pp: must be at least 1 (got -2)"},
      {{"--params", "-5"}, "argument --params/-p: must be a finite number > 0 (got -5)"},
      {{"-a", "0"}, "argument --num-attention-heads/-a: must be at least 1 (got 0)"},
      {{"--misc-mem-gb", "-1"}, "argument --misc-mem-gb: must be a finite number >= 0 (got -1)"},
      {{"-p", "99999999999999999999"}, "argument --params/-p: int value out of range: '99999999999999999999'"},
  };
  for (const auto& c : cases) {
    INFO(c.second);
    const Run r = run(c.first);
    CHECK(r.status == 2);
    CHECK(r.err == "fitcheck transformer-mem: error: " + c.second + "\n");
  }
}

TEST_CASE("transformer-mem --help prints usage after the examples and exits 0") {
  // argparse takes -h, any unique prefix of --help, and "-hs4096" (-h, then -s 4096) as help.
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"-h"}, {"--help"}, {"--he"}, {"-z", "2", "-h", "--bogus"}, {"-hs4096"}}) {
    const Run r = run(args);
    CHECK(r.status == 0);
    CHECK(r.err.empty());
    CHECK(r.out.rfind(std::string(kExamples) + "usage: fitcheck transformer-mem", 0) == 0);
    CHECK(r.out.find("--zero3-max-live-params") != std::string::npos);
  }
  CHECK(run({"--params", "x", "-h"}).status == 2);  // an error before -h wins
}

TEST_CASE("transformer_mem_report: terms in bytes, formulas, the script's totals") {
  // python3 transformer_mem.py  (defaults): 37.25 37.25 72.53 223.52 0.93 0.00 371.49
  fitcheck::TransformerMemInputs in;
  auto r = fitcheck::transformer_mem_report(in);
  CHECK(r.model.bytes == 40e9);  // 2 bytes per parameter
  CHECK(r.gradients.bytes == 40e9);
  CHECK(r.optimizer.bytes == 240e9);    // 12 bytes per parameter, ZeRO-1 over 1 GPU
  CHECK(r.communication.bytes == 1e9);  // 5e8-element bucket x 2 bytes
  CHECK(r.kv_cache.bytes == 2.0 * 2 * 44 * 64 * 96 * 2048);
  CHECK(gib_text(r.activations.bytes) == "72.53");
  CHECK(gib_text(r.total.bytes) == "371.49");
  CHECK_FALSE(r.infer);
  CHECK(r.model.formula == "params 20000000000 x 2 bytes / (tp 1 x pp 1)");
  CHECK(r.activations.formula == "s 2048 x b 1 x h 6144 x L 44 x (10 + 24/tp 1 + 5 x a 64 x s 2048 / (h 6144 x tp 1))");

  // python3 transformer_mem.py -z 3 --num-gpus 8 --infer --misc-mem-gb 2: 4.66 2.06 2.00 8.72
  in.zero_stage = 3;
  in.num_gpus = 8;
  in.infer = true;
  in.misc_mem_gb = 2;
  r = fitcheck::transformer_mem_report(in);
  CHECK(r.infer);
  CHECK(gib_text(r.model.bytes) == "4.66");
  CHECK(gib_text(r.kv_cache.bytes) == "2.06");
  CHECK(r.miscellaneous.bytes == 2.0 * fitcheck::kTransformerMemBytesPerGib);
  CHECK(gib_text(r.total.bytes) == "8.72");
  CHECK(r.model.formula == "params 20000000000 x 2 bytes / (tp 1 x pp 1) / num_gpus 8 (ZeRO-3)");
  CHECK(r.communication.formula == "bucket 500000000 x 2 bytes + live params 1000000000 x 2 bytes");
  CHECK(r.total.formula == "kv_cache + model + misc");
}

TEST_CASE("transformer_mem_report names the nonsensical input") {
  using Inputs = fitcheck::TransformerMemInputs;
  const std::vector<std::pair<std::string, void (*)(Inputs&)>> cases = {
      {"num_gpus", [](Inputs& in) { in.num_gpus = 0; }},
      {"tensor_parallel_size", [](Inputs& in) { in.tensor_parallel_size = -1; }},
      {"zero_stage", [](Inputs& in) { in.zero_stage = 4; }},
      {"params", [](Inputs& in) { in.params = 0; }},
      {"sequence_length", [](Inputs& in) { in.sequence_length = 0; }},
      {"zero3_max_live_params", [](Inputs& in) { in.zero3_max_live_params = -1; }},
  };
  for (const auto& [field, spoil] : cases) {
    Inputs in;
    spoil(in);
    CHECK_THROWS_AS(fitcheck::transformer_mem_report(in), std::invalid_argument);
    try {
      fitcheck::transformer_mem_report(in);
    } catch (const fitcheck::TransformerMemInputError& e) {
      CHECK(e.field() == field);
    }
  }
}
