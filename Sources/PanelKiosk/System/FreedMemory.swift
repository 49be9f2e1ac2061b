import CProcess

/// Heap memory given back to the system: glibc keeps what `free` returns in its arenas for the
/// next `malloc`, and a heap whose top is still in use never shrinks, so a kiosk that decoded a
/// thousand thumbnails and evicted most of them kept its high-water mark. `malloc_trim(0)`
/// releases the free pages of every arena (the middle of a heap too, by `madvise`, since
/// glibc 2.8).
enum FreedMemory {
    /// Releases the free pages of every arena; whether any were released.
    @discardableResult
    static func giveBack() -> Bool { malloc_trim(0) != 0 }
}
