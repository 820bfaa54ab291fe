rm -rf /workspace/build
