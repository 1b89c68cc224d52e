// ncu_csv.h: the checks the Nsight Compute import makes on each cell of ncu's CSV: RFC 4180 line
// splitting, numbers as ncu writes them (never a locale's), and what kind of quantity a unit and
// a metric name stand for, so bytes given in seconds or a made-up unit are refused instead of
// being converted or taken as base units.
#pragma once

#include <string>
#include <vector>

namespace rlx::counters::ncu {

// Splits one CSV line (RFC 4180 quoting, "" inside quotes is a quote). Returns false on an
// unterminated quote.
bool split_csv(const std::string& line, std::vector<std::string>& out);

// A number as ncu prints it: optional '-', digits with ',' only between groups of three
// ("1,234,567"), optional '.' fraction, optional exponent ("1.5e+06"). false for anything else,
// notably a locale's formats ("1.000,5", "9,00") and stray separators ("1,2,3").
bool parse_number(const std::string& text, double& out);

enum class UnitKind { bytes, time, count, rate, percent, unknown };

// "Kbyte" bytes, "usecond" time, "inst"/"cycle"/"" count, "Gbyte/second" rate, "%" percent,
// anything else (e.g. "furlong", "Kbyte/furlong") unknown.
UnitKind unit_kind(const std::string& unit);

// What an additive metric's name says it counts: "...bytes..." bytes, "..._time_duration..." time,
// everything else (instructions, operations, cycles, sectors) a count.
UnitKind expected_kind(const std::string& metric);

// "bytes", "a time", "a count", "a rate", "a percentage", "unknown".
const char* kind_name(UnitKind kind);

// Units a metric of this kind may carry, for messages: "byte, Kbyte, Mbyte, Gbyte, Tbyte".
const char* kind_examples(UnitKind kind);

}  // namespace rlx::counters::ncu
