# Slurm and GPU-build tests (issue 14) that need no cluster. The scripts that start a real
# single-node Slurm cluster (tests/slurm/cluster.sh), drive setup.sh's choice of LibTorch with fake
# GPUs and check the CUDA code built and linked are in tests/e2e/scripts.cmake.

setup: a GPU this build cannot use is said loudly
  requires: not cuda-torch
  $ rlx run tests/setup/gpu_unusable.lua
  stdout contains: gpu_unusable ok
  stderr contains: rlx.study: WARNING: the GPU here is not used: NVIDIA H100 80GB HBM3 is present, but this rlx is built against a CPU-only LibTorch (re)

setup: a GPU this build cannot use is said loudly
  requires: cuda-torch
  $ rlx run tests/setup/gpu_unusable.lua
  stdout contains: gpu_unusable ok

# rlx submit / status / shard without a cluster: usage errors, and a dry run that plans and shards.
slurm: rlx submit needs a script
  $ rlx submit
  stderr contains: rlx submit: missing SCRIPT
  [2]

slurm: rlx submit of a missing script
  $ rlx submit no/such.lua
  stderr contains: rlx submit: no script 'no/such.lua' (re)
  [2]

slurm: rlx submit --tasks 0
  $ rlx submit tests/slurm/study.lua --tasks 0
  stderr:
  rlx submit: --tasks must be an integer from 1 to 10000, got '0'
  Try 'rlx submit --help'.
  [2]

slurm: rlx submit --dry-run plans, deals 8 slots into 3 shards, writes the sbatch options
  $ rlx submit tests/slurm/study.lua --set db=$RLX_TEST_TMP/slurm-dry/study.db --tasks 3 --partition gpu --gres gpu:1 --time 0:10:00 --sbatch-arg=--exclusive --sbatch-arg --account=lab --dry-run
  stdout contains:
  environment gpu: 8 runs in the matrix.*8 slots planned, 0 stored ok, 0 queued in earlier submissions, 8 to submit (re)
  task 0: gpu_resnet18_fp32_bs2_run1 gpu_mobilenet_v2_fp32_bs4_run1 gpu_mobilenet_v2_fp32_bs2_run2
  task 1: gpu_resnet18_fp32_bs4_run1 gpu_resnet18_fp32_bs2_run2 gpu_mobilenet_v2_fp32_bs4_run2
  task 2: gpu_mobilenet_v2_fp32_bs2_run1 gpu_resnet18_fp32_bs4_run2
  .*#SBATCH --array=0-2 (re)
  .*#SBATCH --partition=gpu (re)
  #SBATCH --gres=gpu:1
  #SBATCH --time=0:10:00
  #SBATCH --exclusive
  #SBATCH --account=lab
  exec .* shard run .*/slurm-dry/shards/study/<submission>/manifest.json' (re)
  submit: dry run, nothing written or submitted

slurm: rlx status of a missing database
  $ rlx status no/such.db
  stderr contains: rlx status: no database at 'no/such.db' and no submissions under .*/no/shards/such (re)
  [1]

slurm: rlx shard run of a missing manifest
  $ rlx shard run no/manifest.json 0
  stderr contains: rlx: no manifest at 'no/manifest.json' (re)
  [1]

slurm: rlx shard needs run or collect
  $ rlx shard go x.json
  stderr contains: unknown action 'go' (run or collect)
  [2]

slurm: collect keeps one ok run per slot across two nodes of one label
  $ rlx run tests/slurm/collect.lua
  stdout contains: collect ok
