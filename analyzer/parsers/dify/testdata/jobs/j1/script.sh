cd /workspace && ls -la
curl -H "Authorization: Bearer abcdefghijklmnopqr" https://api.example.com
