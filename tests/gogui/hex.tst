# engine: --gogui --game hex --size 3
# Hex in GoGui mode, as GoGui sees it: a rhombus of hexagons (GoGui's A1 is
# Hex's a3, its row 1 the bottom), no swap, a win by the rules, then the
# passes gogui-twogtp needs to end the game without an error.
10 gogui-rules_game_id
#? [hex]
20 gogui-rules_board_size
#? [3 hex]
30 play b A3
#? []
40 gogui-rules_legal_moves
#? [A1 B1 C1 A2 B2 C2 B3 C3]
50 gogui-rules_side_to_move
#? [white]
60 play w B3
#? []
70 play b A2
#? []
80 play w B2
#? []
90 play b A1
#? []
100 final_score
#? [B\+]
110 genmove w
#? [pass]
120 play w pass
#? []
130 genmove b
#? [pass]
140 undo
#? []
150 final_score
#? [B\+]
