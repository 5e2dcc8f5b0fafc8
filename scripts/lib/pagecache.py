"""Page-cache eviction and warm/cold timing for the query scripts
(scripts/query_latency.sh, scripts/grundy_query_scale.sh)."""
import os
import statistics


def evict(directory):
    """Drops every file under `directory` from the page cache
    (posix_fadvise DONTNEED), so the next read comes from the disk."""
    for root, _, files in os.walk(directory):
        for name in files:
            fd = os.open(os.path.join(root, name), os.O_RDONLY)
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
            os.close(fd)


def warm_and_cold(once, directory, runs):
    """Median milliseconds of `runs` calls of `once()` (which returns its
    own time) warm, then of `runs` calls each after evicting `directory`."""
    warm = statistics.median(once() for _ in range(runs))
    cold = []
    for _ in range(runs):
        evict(directory)
        cold.append(once())
    return warm, statistics.median(cold)
