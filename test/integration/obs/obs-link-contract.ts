/**
 * The ObsLink contract: one suite that the real link against Debian's real OBS
 * (test/e2e/obs/obs-link-real.test.ts) and the fake OBS (obs-link-fake.test.ts) must both pass, so the
 * fake every other OBS test relies on cannot promise what OBS does not do (docs/obs.md#testing-against-a-real-obs).
 *
 * One OBS serves the whole suite, so each test makes its own scenes and inputs under fresh names; the
 * crash and restart run last.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type ObsLink, ObsLinkError } from '../../../electron/obs/obs-link';
import { outputTests } from './obs-link-contract-outputs';
import {
  type ContractContext,
  expectRequestError,
  nextEvent,
  type ObsLinkSubject,
  rejectionOf,
} from './obs-link-fixtures';

export type { ObsLinkSubject } from './obs-link-fixtures';

/** Registers the contract's tests for the subject `makeSubject` builds, under `name`. */
export function describeObsLinkContract(name: string, makeSubject: () => Promise<ObsLinkSubject>): void {
  describe(`ObsLink contract: ${name}`, () => {
    let subject: ObsLinkSubject;
    let link: ObsLink;
    const opened: ObsLink[] = [];
    let unique = 0;
    const fresh = (what: string): string => `${what} ${++unique}`;

    async function connected(): Promise<ObsLink> {
      const next = subject.link();
      opened.push(next);
      await next.connect({ url: subject.url, password: subject.password });
      return next;
    }

    const ctx: ContractContext = {
      get subject() {
        return subject;
      },
      get link() {
        return link;
      },
      fresh,
      connected,
    };

    beforeAll(async () => {
      subject = await makeSubject();
      link = await connected();
    });
    afterEach(async () => {
      // Every test but the first keeps the suite's link; the extra ones are closed.
      for (const extra of opened.splice(1)) {
        await extra.close();
      }
    });
    afterAll(async () => {
      for (const each of opened.splice(0)) {
        await each.close();
      }
      await subject?.close();
    });

    it('identifies with the right password and names OBS and websocket versions', async () => {
      const other = subject.link();
      opened.push(other);
      const identity = await other.connect({ url: subject.url, password: subject.password });
      expect(identity.obsVersion).toMatch(/^\d+\.\d+\.\d+/);
      expect(identity.websocketVersion).toMatch(/^5\.\d+\.\d+/);
      expect(identity.rpcVersion).toBe(1);
    });

    it('refuses a wrong password and a missing one as wrong-password (4009), never echoing it', async () => {
      for (const password of ['not-the-password-4711', null]) {
        const other = subject.link();
        const error = await rejectionOf(other.connect({ url: subject.url, password }));
        expect(error).toBeInstanceOf(ObsLinkError);
        expect(error).toMatchObject({ failure: 'wrong-password', closeCode: 4009 });
        expect(String((error as Error).message)).not.toContain('4711');
        if (subject.password !== null) {
          expect((error as Error).message).not.toContain(subject.password);
        }
      }
    });

    it('finds nothing listening as unreachable, and a link that is not connected refuses requests', async () => {
      const other = subject.link();
      const error = await rejectionOf(other.connect({ url: subject.unusedUrl, password: subject.password }));
      expect(error).toMatchObject({ failure: 'unreachable' });
      expect(await rejectionOf(subject.link().call('GetStats'))).toMatchObject({ failure: 'unreachable' });
    });

    it('creates scenes, lists them bottom first, and switches the program scene with an event', async () => {
      const [first, second] = [fresh('Ad break'), fresh('Starting soon')];
      await link.call('CreateScene', { sceneName: first });
      await link.call('CreateScene', { sceneName: second });
      const list = await link.call('GetSceneList');
      const names = list.scenes.map((s) => s.sceneName);
      expect(names.indexOf(second)).toBeLessThan(names.indexOf(first));
      expect(list.scenes.map((s) => s.sceneIndex)).toEqual(names.map((_, i) => i));
      expect(names).toContain('Scene');

      const changed = nextEvent(link, 'CurrentProgramSceneChanged', (e) => e.sceneName === first);
      await link.call('SetCurrentProgramScene', { sceneName: first });
      await expect(changed).resolves.toEqual(expect.objectContaining({ sceneName: first }));
      expect(await link.call('GetCurrentProgramScene')).toMatchObject({ currentProgramSceneName: first });
      expect((await link.call('GetSceneList')).currentProgramSceneName).toBe(first);
      await expectRequestError(link.call('CreateScene', { sceneName: first }), 601);

      // The scene already on air again: OBS answers and sends nothing, so the next event is the real switch.
      const next = nextEvent(link, 'CurrentProgramSceneChanged');
      await link.call('SetCurrentProgramScene', { sceneName: first });
      await link.call('SetCurrentProgramScene', { sceneName: second });
      expect(await next).toMatchObject({ sceneName: second });
    });

    it('answers a scene that does not exist with 600 and changes nothing', async () => {
      const before = await link.call('GetCurrentProgramScene');
      await expectRequestError(link.call('SetCurrentProgramScene', { sceneName: fresh('No such scene') }), 600);
      await expectRequestError(link.call('GetSceneItemList', { sceneName: fresh('No such scene') }), 600);
      expect(await link.call('GetCurrentProgramScene')).toEqual(before);
    });

    it('adds a colour input to a scene, lists its item, and shows and hides it with events', async () => {
      const sceneName = fresh('Sources');
      const inputName = fresh('Red');
      await link.call('CreateScene', { sceneName });
      const created = nextEvent(link, 'SceneItemCreated', (e) => e.sourceName === inputName);
      const settings = { color: 4278190335, width: 320, height: 180 };
      const { sceneItemId } = await link.call('CreateInput', {
        sceneName,
        inputName,
        inputKind: 'color_source_v3',
        inputSettings: settings,
      });
      expect(await created).toMatchObject({ sceneName, sourceName: inputName, sceneItemId });
      const { sceneItems } = await link.call('GetSceneItemList', { sceneName });
      expect(sceneItems).toEqual([
        expect.objectContaining({
          sceneItemId,
          sourceName: inputName,
          sceneItemEnabled: true,
          inputKind: 'color_source_v3',
        }),
      ]);
      expect(await link.call('GetSceneItemId', { sceneName, sourceName: inputName })).toEqual(
        expect.objectContaining({ sceneItemId }),
      );
      expect((await link.call('GetInputSettings', { inputName })).inputSettings).toMatchObject(settings);
      const listed = await link.call('GetInputList', { inputKind: 'color_source_v3' });
      expect(listed.inputs.map((i) => i.inputName)).toContain(inputName);

      const hidden = nextEvent(link, 'SceneItemEnableStateChanged', (e) => e.sceneItemId === sceneItemId);
      await link.call('SetSceneItemEnabled', { sceneName, sceneItemId, sceneItemEnabled: false });
      expect(await hidden).toEqual(expect.objectContaining({ sceneName, sceneItemId, sceneItemEnabled: false }));
      expect(await link.call('GetSceneItemEnabled', { sceneName, sceneItemId })).toMatchObject({
        sceneItemEnabled: false,
      });
      // Hidden again changes nothing and sends nothing: the next event is the item shown.
      const shown = nextEvent(link, 'SceneItemEnableStateChanged');
      await link.call('SetSceneItemEnabled', { sceneName, sceneItemId, sceneItemEnabled: false });
      await link.call('SetSceneItemEnabled', { sceneName, sceneItemId, sceneItemEnabled: true });
      expect(await shown).toMatchObject({ sceneItemId, sceneItemEnabled: true });

      await expectRequestError(link.call('CreateInput', { sceneName, inputName, inputKind: 'color_source_v3' }), 601);
      await expectRequestError(link.call('GetSceneItemEnabled', { sceneName, sceneItemId: sceneItemId + 100 }), 600);
      await expectRequestError(link.call('GetSceneItemId', { sceneName, sourceName: fresh('Nothing') }), 600);

      // OBS 29 answers RemoveInput but keeps the input and its scene item (docs/obs.md#obs-wire-facts).
      await link.call('RemoveInput', { inputName });
      await expectRequestError(link.call('RemoveInput', { inputName: fresh('Never made') }), 600);
    });

    it("changes an input's settings over the ones it has, and refuses an unknown input", async () => {
      const sceneName = fresh('Settings');
      const inputName = fresh('Blue');
      await link.call('CreateScene', { sceneName });
      await link.call('CreateInput', {
        sceneName,
        inputName,
        inputKind: 'color_source_v3',
        inputSettings: { color: 4294901760, width: 320, height: 180 },
      });
      await link.call('SetInputSettings', { inputName, inputSettings: { width: 640 } });
      expect((await link.call('GetInputSettings', { inputName })).inputSettings).toMatchObject({
        color: 4294901760,
        width: 640,
        height: 180,
      });
      await expectRequestError(
        link.call('SetInputSettings', { inputName: fresh('Never made'), inputSettings: { width: 1 } }),
        600,
      );
    });

    it('adds a hidden input when asked, and says so with an event', async () => {
      const sceneName = fresh('Hidden sources');
      await link.call('CreateScene', { sceneName });
      const hidden = nextEvent(link, 'SceneItemEnableStateChanged', (e) => e.sceneName === sceneName);
      const { sceneItemId } = await link.call('CreateInput', {
        sceneName,
        inputName: fresh('Blue'),
        inputKind: 'color_source_v3',
        sceneItemEnabled: false,
      });
      expect(await hidden).toMatchObject({ sceneItemId, sceneItemEnabled: false });
      expect(await link.call('GetSceneItemEnabled', { sceneName, sceneItemId })).toMatchObject({
        sceneItemEnabled: false,
      });
    });

    it('offers a browser source exactly when its input kinds list one, and refuses a kind it lacks with 605', async () => {
      const { inputKinds } = await link.call('GetInputKindList', {});
      expect(inputKinds).toContain('color_source_v3');
      const sceneName = fresh('Overlays');
      await link.call('CreateScene', { sceneName });
      const browser = link.call('CreateInput', {
        sceneName,
        inputName: fresh('Overlay'),
        inputKind: 'browser_source',
        inputSettings: { url: 'http://127.0.0.1:1/overlay', width: 1920, height: 1080 },
      });
      if (inputKinds.includes('browser_source')) {
        await expect(browser).resolves.toMatchObject({ sceneItemId: expect.any(Number) });
      } else {
        await expectRequestError(browser, 605);
      }
      const kind = 'greenroom_no_such_kind';
      await expectRequestError(link.call('CreateInput', { sceneName, inputName: fresh('X'), inputKind: kind }), 605);
      expect((await link.call('GetSceneItemList', { sceneName })).sceneItems.length).toBe(
        inputKinds.includes('browser_source') ? 1 : 0,
      );
    });

    outputTests(ctx);

    it('closes without telling onClosed when asked to', async () => {
      const other = await connected();
      const closes: ObsLinkError[] = [];
      other.onClosed((error) => void closes.push(error));
      await other.close();
      expect(await rejectionOf(other.call('GetStats'))).toMatchObject({ failure: 'unreachable' });
      expect(closes).toEqual([]);
    });

    it('ends every session as unreachable when OBS crashes, and a restarted OBS takes a new link', async () => {
      const closed = new Promise<ObsLinkError>((resolve) => link.onClosed(resolve));
      await subject.kill();
      expect(await closed).toMatchObject({ failure: 'unreachable' });
      expect(await rejectionOf(link.call('GetStats'))).toMatchObject({ failure: 'unreachable' });
      expect(await rejectionOf(subject.link().connect({ url: subject.url, password: subject.password }))).toMatchObject(
        {
          failure: 'unreachable',
        },
      );
      await subject.start();
      const again = await connected();
      expect((await again.call('GetSceneList')).scenes.map((s) => s.sceneName)).toContain('Scene');
    });
  });
}
