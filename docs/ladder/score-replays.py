import sys,re,glob
# score --replay files of the Squeeze family: A's colour from its last line, the winner from Won([i]) with white=0, black=1,
for f in sys.argv[1:]:
    L=open(f).read().splitlines()
    seat=re.search(r'seat (\d)',L[0]).group(1)
    alines=[l for l in L if re.match(r'^\s*\d+ A ',l)]
    acol=re.search(r'to_move=(\w+)',alines[-1]).group(1)
    end=L[-1]
    m=re.search(r'(Won\(\[(\d)\]\)|Drawn)',end)
    if not m: print(f,'unfinished'); continue
    if m.group(1)=='Drawn': res='D'; wcol=None
    else:
        wcol=['white','black'][int(m.group(2))]; res='W' if wcol==acol else 'L'
    plies=re.search(r'ply=(\d+)',end).group(1)
    print('game', re.search(r'game (\d+)',L[0]).group(1), 'A seat',seat,'A',acol,'winner',wcol,res,'plies',plies)
