# engine: --gogui --game orcoon --size 5
# Orcoon 5x5 in GoGui mode: a pass ends the game and is adjudicated, then
# genmove passes (gogui-twogtp ends a game on two passes).
10 gogui-rules_game_id
#? [orcoon]
20 gogui-rules_board_size
#? [5]
30 play b C3
#? []
40 gogui-rules_legal_moves
#? [A1 B1 .* E5 pass]
50 play w pass
#? []
60 final_score
#? [B\+]
70 genmove b
#? [pass]
