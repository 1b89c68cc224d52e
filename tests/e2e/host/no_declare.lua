-- A script that declares no parameters and does its work at once (issue 25 finding 7: with
-- --help it used to run, so a study script trained instead of showing help).
print("RAN")
