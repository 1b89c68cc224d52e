-- rlx._termimg: shows a figure inline in terminals that can draw images, and only in those. The
-- protocol is detected, never assumed (docs/lua-api/frame.md, "Inline images"):
--   RLX_INLINE_IMAGES=0 (or off/no) turns it off; =kitty, =iterm2 or =sixel picks a protocol;
--   stdout not a terminal, or inside tmux/screen (they do not pass images through): none;
--   kitty: $KITTY_WINDOW_ID set, or TERM is xterm-kitty or xterm-ghostty;
--   iTerm2's protocol: TERM_PROGRAM is iTerm.app or WezTerm, or LC_TERMINAL is iTerm2;
--   sixel: the terminal's answer to "primary device attributes" (ESC [ c) lists feature 4.
local M = {}

local bit = require("bit")
local B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

--- Base64 (RFC 4648, padded) of a byte string.
function M.base64(s)
  local out = {}
  for i = 1, #s, 3 do
    local a, b, c = s:byte(i, i + 2)
    local n = bit.bor(bit.lshift(a, 16), bit.lshift(b or 0, 8), c or 0)
    local q = {}
    for k = 1, 4 do
      local idx = bit.band(bit.rshift(n, 6 * (4 - k)), 63)
      q[k] = B64:sub(idx + 1, idx + 1)
    end
    if not b then q[3], q[4] = "=", "=" elseif not c then q[4] = "=" end
    out[#out + 1] = table.concat(q)
  end
  return table.concat(out)
end

--- Whether a DA1 reply ("ESC [ ? 62 ; 4 ; 22 c") lists feature 4 (sixel graphics).
function M.da1_has_sixel(reply)
  local list = type(reply) == "string" and reply:match("%[%?([%d;]*)c")
  if not list then return false end
  for n in list:gmatch("%d+") do
    if n == "4" then return true end
  end
  return false
end

local FORCED = {kitty = true, iterm2 = true, sixel = true}
local OFF = {["0"] = true, off = true, no = true, ["false"] = true}

--- detect(env, tty, ask) -> protocol or nil, reason. env: a function name -> value (os.getenv);
--- tty: whether stdout is a terminal; ask(): the terminal's DA1 reply or nil (only called when
--- nothing else decided).
function M.detect(env, tty, ask)
  local forced = env("RLX_INLINE_IMAGES")
  if forced and OFF[forced:lower()] then return nil, "RLX_INLINE_IMAGES=" .. forced end
  if forced and FORCED[forced:lower()] then return forced:lower(), "RLX_INLINE_IMAGES=" .. forced end
  if not tty then return nil, "stdout is not a terminal" end
  if env("TMUX") or env("STY") then return nil, "inside tmux or screen" end
  local term, program = env("TERM") or "", env("TERM_PROGRAM") or ""
  if env("KITTY_WINDOW_ID") or term == "xterm-kitty" or term == "xterm-ghostty" then
    return "kitty", "kitty graphics protocol (TERM=" .. term .. ")"
  end
  if program == "iTerm.app" or program == "WezTerm" or env("LC_TERMINAL") == "iTerm2" then
    return "iterm2", "iTerm2 inline images (TERM_PROGRAM=" .. program .. ")"
  end
  if term == "" or term == "dumb" then return nil, "TERM=" .. term end
  if M.da1_has_sixel(ask and ask()) then return "sixel", "the terminal reports sixel graphics" end
  return nil, "the terminal announces no image protocol"
end

--- The escape sequences that draw PNG bytes in a kitty-protocol terminal, `cols` cells wide.
function M.kitty(png, cols)
  local data = M.base64(png)
  local parts = {}
  for i = 1, #data, 4096 do
    local more = i + 4096 <= #data and 1 or 0
    local head = i == 1 and string.format("f=100,a=T%s,m=%d", cols and (",c=" .. cols) or "", more)
      or string.format("m=%d", more)
    parts[#parts + 1] = "\27_G" .. head .. ";" .. data:sub(i, i + 4095) .. "\27\\"
  end
  return table.concat(parts) .. "\n"
end

--- The escape sequence that draws PNG bytes with iTerm2's protocol, `cols` cells wide.
function M.iterm2(png, cols)
  return string.format("\27]1337;File=inline=1;size=%d;preserveAspectRatio=1%s:%s\7\n", #png,
    cols and (";width=" .. cols) or "", M.base64(png))
end

local cached  -- the detection, once per process

local function ask_da1()
  return rlx._core.term.query("\27[c", "c", 300)
end

--- Draws the PNG at path inline when the terminal can; returns the protocol used, or nil.
function M.show(path)
  if not path:lower():match("%.png$") then return nil end
  if cached == nil then
    local tty = rlx._core.term.width() ~= nil
    cached = M.detect(os.getenv, tty, ask_da1) or false
  end
  if not cached then return nil end
  local cols = math.min(rlx._core.term.width() or 100, 100)
  if cached == "sixel" then
    io.write(rlx._core.plot.sixel(path, math.min(cols * 8, 1000)), "\n")
    return cached
  end
  -- Read by rlx's rule for a file a user may name (a FIFO at the path is refused, not waited on).
  local read, png = pcall(rlx.fs.read, path, {what = "the figure"})
  if not read then
    rlx.errors.pass_exits(png)
    return nil
  end
  io.write(cached == "kitty" and M.kitty(png, cols) or M.iterm2(png, cols))
  return cached
end

return M
