-- Prints twice the --set parameter n (a number, since --set parses numbers).
print(rlx.params.n * 2)
print(#rlx.args, rlx.args[1])
