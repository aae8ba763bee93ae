"$STAT" --json "$DATA/texture.trace" >s.json
jq -r '.frames.count, .stream_bytes, .version, .container, .api' s.json
jq -r '.FramesCount, .ActualDataSize, .ContainerVersion, (.ContainerType | ascii_downcase), .API' "$DATA/texture.info.json"
