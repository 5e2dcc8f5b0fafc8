"""Page-cache eviction for cold-query timings, shared by the query scripts
(scripts/query_latency.sh, scripts/grundy_query_scale.sh)."""
import os


def evict(directory):
    """Drops every file under `directory` from the page cache
    (posix_fadvise DONTNEED), so the next read comes from the disk."""
    for root, _, files in os.walk(directory):
        for name in files:
            fd = os.open(os.path.join(root, name), os.O_RDONLY)
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
            os.close(fd)
