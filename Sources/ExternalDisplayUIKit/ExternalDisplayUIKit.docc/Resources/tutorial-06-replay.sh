# The trace as text, then the trace checker's verdict:
extdisplay simulate presenter-displays.json
echo $?    # 0: every rule held; 1: a violation (the trace is still printed); 2: not a scenario file

# The same run as NDJSON, to diff against a later build:
extdisplay simulate presenter-displays.json --format ndjson > presenter-displays.ndjson
