#!/bin/bash
# run.sh VENV NAME : network-free run (own net namespace), empty HF cache and HOME
exec unshare -n env -i PATH=/usr/bin:/bin HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 HF_HOME=/tmp/embed/empty_hf HOME=/tmp/embed/fakehome OMP_NUM_THREADS=${OMP_NUM_THREADS:-2} ${OMP_WAIT_POLICY:+OMP_WAIT_POLICY=$OMP_WAIT_POLICY} \
  /tmp/embed/venv-$1/bin/python "$(dirname "$0")"/measure.py $2
