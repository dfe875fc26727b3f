"""Reading the rules as a whole: analyses of the parsed rule text whose findings the
runtime needs but must not work out itself (it never reads rule text). `facts.find_facts`
runs them all once, when the rules load, and the compiler records the result on the
game's definition (`GameDef.facts`, model/facts.py).
"""
