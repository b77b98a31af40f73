#!/usr/bin/env python3
"""
Test support for test/e2e/serve-hung-file.test.ts: a read-only passthrough FUSE mount of SRC at
MNT where open and read of files named slow* hang (a network mount that stopped answering) until
the file GATE exists, and so do reads of files named late* past their first byte (a mount that
stops mid-file). Each call that starts to hang appends a line to LOG, so that the test can wait
for them without timing. Reads bypass the page cache (direct_io): each one reaches this process
at the offset asked, never as the kernel's read-ahead.

Usage: hung-fuse.py SRC MNT GATE LOG
"""
import errno
import os
import sys
import threading
import time

from fusepy import FUSE, FuseOSError, Operations

STAT_KEYS = ('st_atime', 'st_ctime', 'st_gid', 'st_mode', 'st_mtime', 'st_nlink', 'st_size', 'st_uid')


class Hung(Operations):
    def __init__(self, src, gate, log):
        self.src = src
        self.gate = gate
        self.log = log
        self.lock = threading.Lock()

    def _real(self, path):
        return os.path.join(self.src, path.lstrip('/'))

    def _hang(self, what, path, offset=0):
        name = os.path.basename(path)
        hangs = name.startswith('slow') or (name.startswith('late') and offset > 0)
        if not hangs or os.path.exists(self.gate):
            return
        with self.lock:
            with open(self.log, 'a') as f:
                f.write(f'{what} {path}\n')
        while not os.path.exists(self.gate):
            time.sleep(0.02)

    def getattr(self, path, fh=None):
        try:
            st = os.lstat(self._real(path))
        except OSError as e:
            raise FuseOSError(e.errno)
        return {k: getattr(st, k) for k in STAT_KEYS}

    def readdir(self, path, fh):
        return ['.', '..'] + os.listdir(self._real(path))

    def access(self, path, mode):
        if not os.access(self._real(path), mode):
            raise FuseOSError(errno.EACCES)

    def readlink(self, path):
        return os.readlink(self._real(path))

    def open(self, path, flags):
        self._hang('open', path)
        return os.open(self._real(path), os.O_RDONLY)

    def read(self, path, size, offset, fh):
        self._hang('read', path, offset)
        return os.pread(fh, size, offset)

    def release(self, path, fh):
        os.close(fh)


if __name__ == '__main__':
    src, mnt, gate, log = sys.argv[1:5]
    FUSE(Hung(src, gate, log), mnt, foreground=True, nothreads=False, ro=True, direct_io=True)
