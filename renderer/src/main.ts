/**
 * Mounts the panel over the transport this page runs on. `#/chat` renders only the chat (the pop-out
 * window), `?compact=1` the compact companion layout; anything else the full panel.
 */
import { mount } from 'svelte';
import App from './App.svelte';
import './app.css';
import { createPanelLink } from './lib/api';
import { pickView } from './lib/route';

const target = document.getElementById('app');
if (!target) {
  throw new Error('Greenroom: #app is missing from index.html');
}
const { api, connection, openLink } = createPanelLink();
export default mount(App, {
  target,
  props: { api, view: pickView(window.location), deps: { connection, openLink } },
});
