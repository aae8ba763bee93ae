/* Tiny multi-threaded GLX demo used to record tests/data/threads.trace.
 * Two worker threads, each with its own window and GLX context, draw
 * NFRAMES frames concurrently (calls from both threads interleave in the
 * trace).  Thread A also uploads a 1.25 MiB RGBA texture (a blob that
 * crosses apitrace's 1 MiB snappy chunk boundary).
 * Build: gcc -O1 -o threads threads.c -lGL -lX11 -lpthread            */
#include <GL/gl.h>
#include <GL/glx.h>
#include <X11/Xlib.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define NFRAMES 3
static Display* dpy;
static XVisualInfo* vi;
static pthread_barrier_t bar;

static Window make_window(int x) {
  XSetWindowAttributes swa;
  swa.colormap = XCreateColormap(dpy, RootWindow(dpy, vi->screen), vi->visual, AllocNone);
  swa.event_mask = 0;
  Window w = XCreateWindow(dpy, RootWindow(dpy, vi->screen), x, 0, 64, 64, 0, vi->depth, InputOutput, vi->visual,
                           CWColormap | CWEventMask, &swa);
  XMapWindow(dpy, w);
  XSync(dpy, False);
  return w;
}

static void* worker(void* arg) {
  int id = (int)(long)arg;
  Window w = make_window(id * 80);
  GLXContext ctx = glXCreateContext(dpy, vi, NULL, True);
  glXMakeCurrent(dpy, w, ctx);
  glViewport(0, 0, 64, 64);
  if (id == 0) {
    int tw = 640, th = 512;
    unsigned char* px = malloc((size_t)tw * th * 4);
    for (int y = 0; y < th; y++)
      for (int x = 0; x < tw; x++) {
        unsigned char* p = px + ((size_t)y * tw + x) * 4;
        p[0] = (unsigned char)((x & 15) * 16);
        p[1] = (unsigned char)((y / 64) * 32);
        p[2] = 128;
        p[3] = 255;
      }
    GLuint tex;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, tw, th, 0, GL_RGBA, GL_UNSIGNED_BYTE, px);
    free(px);
    glEnable(GL_TEXTURE_2D);
  }
  for (int f = 0; f < NFRAMES; f++) {
    pthread_barrier_wait(&bar);
    glClearColor(id ? 0.25f : 0.5f, 0.125f * f, 1.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glBegin(GL_TRIANGLES);
    glTexCoord2f(0, 0);
    glVertex2f(-0.5f, -0.5f);
    glTexCoord2f(1, 0);
    glVertex2f(0.5f, -0.5f);
    glTexCoord2f(0, 1);
    glVertex2f(0.0f, 0.5f + 0.1f * id);
    glEnd();
    glXSwapBuffers(dpy, w);
  }
  glXMakeCurrent(dpy, None, NULL);
  glXDestroyContext(dpy, ctx);
  return NULL;
}

int main(void) {
  XInitThreads();
  dpy = XOpenDisplay(NULL);
  if (!dpy) {
    fprintf(stderr, "no display\n");
    return 1;
  }
  int attr[] = {GLX_RGBA, GLX_DOUBLEBUFFER, GLX_RED_SIZE, 8, GLX_GREEN_SIZE, 8, GLX_BLUE_SIZE, 8, None};
  vi = glXChooseVisual(dpy, DefaultScreen(dpy), attr);
  if (!vi) {
    fprintf(stderr, "no visual\n");
    return 1;
  }
  pthread_barrier_init(&bar, NULL, 2);
  pthread_t t[2];
  for (long i = 0; i < 2; i++) pthread_create(&t[i], NULL, worker, (void*)i);
  for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
  XCloseDisplay(dpy);
  return 0;
}
