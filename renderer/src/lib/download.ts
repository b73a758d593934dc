/**
 * Saves a file the panel made (an export, a chart) as a download: no network, and the same in the desktop
 * window, a browser and an OBS dock, as the automation export does.
 */
export function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
