-- study:figures{format = "svg" | "pdf"} (issue 15 item 7): the files get that extension and that
-- content (an <svg> document, a %PDF file); an unknown format names the valid ones.
local tmp = os.getenv("RLX_TEST_TMP") or "/tmp"
os.remove(tmp .. "/report_formats.db")
local s = rlx.study{name = "f", db = tmp .. "/report_formats.db", label = "e"}
s:sweep{models = {"resnet18"}, batch = {2}, repeats = 2, iters = 1, input = 32, classes = 10, quiet = true,
  trainer = function() return {ok = true, images_per_s = 10, iter_s = {mean = 0.2}, device = "cpu"} end}
for _, fmt in ipairs({"svg", "pdf"}) do
  local r = s:figures{dir = tmp .. "/report_formats_" .. fmt, format = fmt, quiet = true}
  local path = r.files[1].path
  local f = assert(io.open(path, "rb"))
  local body = f:read("*a")
  f:close()
  print(fmt, path:match("[^/]+$"), fmt == "svg" and body:match("<svg") or body:sub(1, 4))
end
local _, err = pcall(s.figures, s, {format = "jpg"})
print("bad", rlx.errors.text(err))
