-- A script that prints before it declares its parameters, and mentions rlx.params.declare only in
-- this comment: `rlx run FILE --help` stops it at its first action (the print), not run.
print("RAN")
local P = rlx.params.declare{n = {type = "integer", default = 1, help = "a count"}}
print(P.n)
