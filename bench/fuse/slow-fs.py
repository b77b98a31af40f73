#!/usr/bin/python3
"""Read-only FUSE passthrough of SOURCE at MOUNTPOINT for the bench's slow-file cell: files whose
name starts with "slow" take 1 s per open and 1 s per read; everything else passes straight
through. Multithreaded, so that two slow reads can wait at once. Prints "mounted" when ready.
Needs Debian's python3-fusepy (module `fusepy`). Usage: slow-fs.py SOURCE MOUNTPOINT [SECONDS]"""
import errno
import os
import sys
import time

from fusepy import FUSE, FuseOSError, Operations

DELAY = float(sys.argv[3]) if len(sys.argv) > 3 else 1.0


class SlowPassthrough(Operations):
    def __init__(self, root):
        self.root = os.path.realpath(root)

    def _full(self, path):
        return os.path.join(self.root, path.lstrip("/"))

    @staticmethod
    def _slow(path):
        return os.path.basename(path).startswith("slow")

    def init(self, path):
        print("mounted", flush=True)

    def getattr(self, path, fh=None):
        try:
            st = os.lstat(self._full(path))
        except OSError as e:
            raise FuseOSError(e.errno)
        keys = ("st_mode", "st_nlink", "st_size", "st_uid", "st_gid",
                "st_atime", "st_mtime", "st_ctime")
        return {k: getattr(st, k) for k in keys}

    def readdir(self, path, fh):
        return [".", ".."] + os.listdir(self._full(path))

    def readlink(self, path):
        return os.readlink(self._full(path))

    def access(self, path, mode):
        if not os.access(self._full(path), mode):
            raise FuseOSError(errno.EACCES)

    def statfs(self, path):
        st = os.statvfs(self._full(path))
        keys = ("f_bavail", "f_bfree", "f_blocks", "f_bsize", "f_favail",
                "f_ffree", "f_files", "f_flag", "f_frsize", "f_namemax")
        return {k: getattr(st, k) for k in keys}

    def open(self, path, flags):
        if flags & (os.O_WRONLY | os.O_RDWR):
            raise FuseOSError(errno.EROFS)
        if self._slow(path):
            time.sleep(DELAY)
        try:
            return os.open(self._full(path), flags)
        except OSError as e:
            raise FuseOSError(e.errno)

    def read(self, path, size, offset, fh):
        if self._slow(path):
            time.sleep(DELAY)
        return os.pread(fh, size, offset)

    def release(self, path, fh):
        os.close(fh)
        return 0


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    FUSE(SlowPassthrough(sys.argv[1]), sys.argv[2], foreground=True, nothreads=False,
         ro=True, fsname="mcpkit-bench-slow")
