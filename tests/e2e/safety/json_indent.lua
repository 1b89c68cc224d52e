-- json_indent.lua: rlx.json.encode's indent is exact up to its largest value, 64 spaces per level
-- (nlohmann's dump wrote heap bytes for an indent over 1024), at a depth whose lines are wider than
-- 1024 columns too. Builds the expected text independently and prints one verdict per case.
local function nested(depth)
  local v = 1
  for _ = 1, depth do v = {k = v} end
  return v
end
-- The expected text of nested(depth) at `indent` spaces per level, written out by hand.
local function expected(depth, indent)
  local lines = {}
  for level = 0, depth - 1 do
    lines[#lines + 1] = string.rep(" ", indent * level) .. (level == 0 and "{" or '"k": {')
  end
  lines[#lines + 1] = string.rep(" ", indent * depth) .. '"k": 1'
  for level = depth - 1, 0, -1 do lines[#lines + 1] = string.rep(" ", indent * level) .. "}" end
  return table.concat(lines, "\n")
end
for _, case in ipairs({{1, 64}, {20, 64}, {3, 0}, {2, 7}}) do
  local depth, indent = case[1], case[2]
  local got = rlx.json.encode(nested(depth), indent)
  print(depth, indent, #got, got == expected(depth, indent))
end
-- rlx.db.encode is the same function: the same limit.
print(rlx.db.encode({a = 1}, 64) == '{\n' .. string.rep(" ", 64) .. '"a": 1\n}')
