// set_args.h: `--set key=value` from the command line to rlx.params, without the rest of the host
// (the fuzz target tests/fuzz/set_params_fuzz.cpp drives exactly this code). Values that read as
// decimal numbers become numbers and true/false become booleans in rlx.params; rlx.params_text
// keeps every value as typed, for values that are names whatever they look like (--set env=4090).
#pragma once

#include <string>
#include <utility>
#include <vector>

extern "C" {
#include <lua.h>
}

namespace rlx::host {

using SetPairs = std::vector<std::pair<std::string, std::string>>;

// Reads "--set k=v" (two arguments) or "--set=k=v" at args[i], appends the pair and leaves i on
// the last argument it read. False, with err set, for a missing or malformed key=value or the
// reserved key "declare".
bool take_set_arg(const std::vector<std::string>& args, size_t& i, SetPairs& out, std::string& err);

// Parses a decimal number such as "21", "-2.5" or "1e3"; everything else ("0x10", "inf", "nan",
// "1e999", " 5", "") stays a string.
bool parse_number(const std::string& s, double* out);

// Stores each pair in the table at params_index (typed as above) and at text_index (the text).
void push_set_params(lua_State* L, int params_index, int text_index, const SetPairs& params);

}  // namespace rlx::host
