# engine: --gogui --game onyx --size 4 --option start=blank
# Onyx 4x4 in GoGui mode: 7x7 cells, points on odd columns and rows,
# midpoints inside the squares; no swap.
10 gogui-rules_game_id
#? [onyx]
20 gogui-rules_board_size
#? [7]
30 play b A1
#? []
40 gogui-rules_legal_moves
#? [(?!.*\bA1\b)(?!.*swap).*G7.*]
50 genmove w
#? [[A-HJ][1-7]]
60 gogui-rules_side_to_move
#? [black]
70 undo
#? []
80 undo
#? []
90 gogui-rules_side_to_move
#? [black]
100 gogui-rules_board_gfx
#? [(?s)SQUARE D2 B4 F4 D6\nMARK B1 D1 F1 A2 B2 .* F7]
