#!/usr/bin/env python3
"""Writes a synthetic Xcode model of N entities for scaling tests: python3 scripts/dev/generate_model.py OUT.xcdatamodeld N.

Each entity has three attributes (String, Integer 64, Date), a to-one to the next entity and its inverse to-many
from it (a ring, so every entity has both), and every tenth entity a many-to-many with the one five places on:
the shapes `bench run --model` and `bench explain --model` generate phases for. Deterministic. Do not commit the output.
"""
import sys
from pathlib import Path

out = Path(sys.argv[1])
count = int(sys.argv[2])
if count < 2:
    sys.exit("N must be at least 2")


def name(index: int) -> str:
    return f"Entity{index % count:05d}"


lines = ['<?xml version="1.0" encoding="UTF-8" standalone="yes"?>',
         '<model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">']
for index in range(count):
    entity, following, previous = name(index), name(index + 1), name(index - 1)
    lines.append(f'    <entity name="{entity}" representedClassName="{entity}" syncable="YES">')
    lines.append('        <attribute name="title" optional="YES" attributeType="String"/>')
    lines.append('        <attribute name="rank" optional="YES" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>')
    lines.append('        <attribute name="created" optional="YES" attributeType="Date" usesScalarValueType="NO"/>')
    lines.append(f'        <relationship name="next" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="{following}" '
                 f'inverseName="previous" inverseEntity="{following}"/>')
    lines.append(f'        <relationship name="previous" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="{previous}" '
                 f'inverseName="next" inverseEntity="{previous}"/>')
    if index % 10 == 0:
        peer = name(index + 5)
        lines.append(f'        <relationship name="peers" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="{peer}" '
                     f'inverseName="peerOf" inverseEntity="{peer}"/>')
    if index % 10 == 5:
        peer = name(index - 5)
        lines.append(f'        <relationship name="peerOf" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="{peer}" '
                     f'inverseName="peers" inverseEntity="{peer}"/>')
    lines.append('    </entity>')
lines.append('</model>')

version = out / f"{out.stem}.xcdatamodel"
version.mkdir(parents=True, exist_ok=True)
(version / "contents").write_text("\n".join(lines) + "\n")
print(f"{version / 'contents'}: {count} entities")
