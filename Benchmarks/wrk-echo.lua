-- wrk script: the same body to /stratus/v1/echo (decode + encode, no auth, no storage).
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"zoneID":{"zoneName":"Bench"},"atomic":false,"operations":[{"operationType":"create","record":{"recordName":"echo",'
  .. '"recordType":"Destination","fields":{"caption":{"value":"Destination echo","type":"STRING"},'
  .. '"details":{"value":"A short note about the place, the food, the people and the weather there.","type":"STRING"},'
  .. '"createdAt":{"value":1767225600000,"type":"TIMESTAMP"},'
  .. '"image":{"value":"q6urq6urq6urq6urq6urq6urq6urq6urq6urq6urq6urq6urq6urq6urq6urq6urq6urq6urq6urq6urq6urq6urq6urq6urq6urq6ur","type":"BYTES"}}}}]}'
