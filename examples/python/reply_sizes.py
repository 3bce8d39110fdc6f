#!/usr/bin/env python3
"""Bytes of each reply, full view and both state forms against the basic view
with the state as text, at every game's `mid` bench position (docs/performance.md).
Starts target/debug/parlour (or $PARLOUR_BIN) on a free loopback port."""
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))
from parlour_client import Parlour, pb  # noqa: E402

s=socket.socket(); s.bind(("127.0.0.1",0)); port=s.getsockname()[1]; s.close()
p=subprocess.Popen([os.environ.get("PARLOUR_BIN", str(ROOT / "target/debug/parlour")),"serve","--listen",f"127.0.0.1:{port}"],stdout=subprocess.DEVNULL,stderr=subprocess.DEVNULL)
time.sleep(1.5)
try:
    r=Parlour(f"127.0.0.1:{port}")
    for line in (l for f in sorted((ROOT / "crates/engine/src").glob("*/positions.txt")) for l in open(f)):
        if line.startswith("#") or not line.strip(): continue
        game,variant,label,_,_,pos=[x.strip() for x in line.split("|")]
        if label!="mid": continue
        st=pb.GameState(game=game,variant=variant,position=pos)
        def gm(v,f): return r._call(r.stub.GenerateMoves,pb.GenerateMovesRequest(state=st,view=v,state_form=f),None)
        full=gm(pb.REPLY_VIEW_FULL,pb.STATE_FORM_BOTH); lean=gm(pb.REPLY_VIEW_BASIC,pb.STATE_FORM_TEXT)
        mv=full.moves[len(full.moves)//2].notation
        def am(v,f): return r._call(r.stub.ApplyMove,pb.ApplyMoveRequest(state=st,move=pb.Move(notation=mv),view=v,state_form=f),None)
        def ev(v,f): return r._call(r.stub.Evaluate,pb.EvaluateRequest(state=st,view=v,state_form=f),None)
        a_f=am(pb.REPLY_VIEW_FULL,pb.STATE_FORM_BOTH); a_l=am(pb.REPLY_VIEW_BASIC,pb.STATE_FORM_TEXT)
        e_f=ev(pb.REPLY_VIEW_FULL,pb.STATE_FORM_BOTH); e_l=ev(pb.REPLY_VIEW_BASIC,pb.STATE_FORM_TEXT)
        sz=lambda m: len(m.SerializeToString())
        print(f"| {game}:{variant} | {len(full.moves)} | {sz(full):,} / {sz(lean):,} | {sz(a_f):,} / {sz(a_l):,} | {sz(e_f):,} / {sz(e_l):,} |".replace(",", " "))
finally:
    p.terminate()
