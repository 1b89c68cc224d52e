# rlx.train's options are declared once, beside TrainConfig (engine/train/options.cpp; issue 53
# point 1). The option tables of docs/lua-api/train.md and docs/cli.md are generated from the
# declarations (options_docs.sh --write), and every reader follows them: `rlx train --help`,
# study:sweep{}'s keys, the report's knobs, the planner's defaults.

options: the docs' tables, --help, the sweep, the knobs and the plan follow the declarations
  $ bash tests/e2e/train/options_docs.sh "$RLX"
  ok
