/** The desktop app's start-up error box (docs/desktop-runtime.md#a-start-up-failure). */
import { describe, expect, it } from 'vitest';
import { LaunchError, startFailureText } from '../../../../electron/launch/launch-greenroom';
import { startupFailureDialog } from '../../../../electron/launch/startup-dialog';

describe('startupFailureDialog', () => {
  it("shows a known failure's one line, the reason and its fix", () => {
    const error = new LaunchError('the panel port 5180 is in use; set GREENROOM_PANEL_PORT to another port');
    expect(startupFailureDialog(error)).toEqual({
      title: 'Greenroom could not start',
      content: 'The panel port 5180 is in use; set GREENROOM_PANEL_PORT to another port',
    });
    expect(startupFailureDialog(error).content.toLowerCase()).toBe(startFailureText(error).toLowerCase());
  });

  it('shows a bug by its first line only, and says it is one', () => {
    const box = startupFailureDialog(new TypeError('cannot read properties of undefined'));
    expect(box.content.split('\n')[0]).toBe('TypeError: cannot read properties of undefined');
    expect(box.content).toContain('a problem in Greenroom itself');
    expect(box.content).not.toContain('    at ');
  });
});
