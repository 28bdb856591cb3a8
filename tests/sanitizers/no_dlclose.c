/* Preloaded by scripts/sanitize.sh into the ASan+UBSan test runs: dlclose() does nothing, so
 * no library is unmapped before LeakSanitizer's check at exit. In these tests the only
 * libraries ever unloaded are Mesa's GL driver (swrast_dri.so) and its libdrm_* and
 * libsensors dependencies, when Qt closes its GL display. Once unmapped, the driver's globals
 * no longer count as roots, so LeakSanitizer reports the blocks they pointed to as leaks of
 * an "<unknown module>" that no suppression can name. Kept mapped, the driver's memory is
 * reachable and any real leak keeps a named stack. Nothing of ours calls dlclose. */
int dlclose(void* handle) {
    (void)handle;
    return 0;
}
