"""Checks run by test/e2e/python-client.test.ts with the official Python client.

Usage: python3 client_checks.py KUBECONFIG CHECK NAMESPACE
Prints one JSON document (the check's observations) on stdout; the TypeScript test asserts on it.
The client is Debian's python3-kubernetes (22.6), installed by .ci/run.
"""
import json
import sys
import threading

from kubernetes import client, config, watch
from kubernetes.client.rest import ApiException


def configmap(name, data):
    return client.V1ConfigMap(metadata=client.V1ObjectMeta(name=name), data=data)


def check_watch(core, ns):
    # watch.Watch().stream sends ?watch=True (Python's str(True)): the server must stream.
    core.create_namespaced_config_map(ns, configmap("before", {"v": "0"}))
    seen = []
    w = watch.Watch()

    def later():
        core.create_namespaced_config_map(ns, configmap("during", {"v": "1"}))

    timer = threading.Timer(0.5, later)
    timer.start()
    for event in w.stream(core.list_namespaced_config_map, ns, timeout_seconds=10):
        seen.append([event["type"], event["object"].metadata.name])
        if event["object"].metadata.name == "during":
            w.stop()
    timer.join()
    return {"events": seen}


def check_watch_bookmarks(core, ns):
    # allow_watch_bookmarks=True is sent as allowWatchBookmarks=True.
    listed = core.list_namespaced_config_map(ns)
    w = watch.Watch()
    types = []
    for event in w.stream(
        core.list_namespaced_config_map,
        ns,
        resource_version=listed.metadata.resource_version,
        allow_watch_bookmarks=True,
        timeout_seconds=2,
    ):
        types.append(event["type"])
    return {"types": types}


def check_not_found(core, ns):
    try:
        core.read_namespaced_config_map("missing", ns)
    except ApiException as e:
        return {"status": e.status, "reason": e.reason, "body": e.body.decode() if isinstance(e.body, bytes) else e.body}
    return {"status": 200}


def check_conflict(core, ns):
    core.create_namespaced_config_map(ns, configmap("dup", {"v": "0"}))
    try:
        core.create_namespaced_config_map(ns, configmap("dup", {"v": "1"}))
    except ApiException as e:
        return {"status": e.status, "body": e.body.decode() if isinstance(e.body, bytes) else e.body}
    return {"status": 201}


def check_crud(core, ns):
    core.create_namespaced_config_map(ns, configmap("crud", {"a": "1"}))
    patched = core.patch_namespaced_config_map("crud", ns, {"data": {"b": "2"}})
    listed = core.list_namespaced_config_map(ns, label_selector="", pretty="true")
    deleted = core.delete_namespaced_config_map("crud", ns, body=client.V1DeleteOptions(propagation_policy="Background"))
    return {
        "patched": patched.data,
        "listed": [i.metadata.name for i in listed.items],
        "deletedStatus": deleted.status,
        "deletedKind": deleted.kind,
    }


def main():
    kubeconfig, check, ns = sys.argv[1], sys.argv[2], sys.argv[3]
    config.load_kube_config(config_file=kubeconfig)
    core = client.CoreV1Api()
    if check == "namespace":
        core.create_namespace(client.V1Namespace(metadata=client.V1ObjectMeta(name=ns)))
        print(json.dumps({"created": ns}))
        return
    checks = {
        "watch": check_watch,
        "watch-bookmarks": check_watch_bookmarks,
        "not-found": check_not_found,
        "conflict": check_conflict,
        "crud": check_crud,
    }
    print(json.dumps(checks[check](core, ns)))


if __name__ == "__main__":
    main()
